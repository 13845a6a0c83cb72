// NIP-01 kinds: nostr-tools' `kinds` module (the same names and values) and the kind classes.
import type { NostrEvent } from './index.js';

/** Regular: 1..9999 except 3 (relays store them all). False for anything that is not a NIP-01 kind (0..65535). */
export function isRegularKind(kind: number): boolean;
/** Replaceable: 0, 3 and 10000..19999 (relays keep the latest per pubkey and kind). */
export function isReplaceableKind(kind: number): boolean;
/** Ephemeral: 20000..29999 (relays do not store them). */
export function isEphemeralKind(kind: number): boolean;
/** Addressable: 30000..39999 (relays keep the latest per pubkey, kind and `d` tag). */
export function isAddressableKind(kind: number): boolean;
/** nostr-tools' names of the classes: 'parameterized' is addressable; 'unknown' for 40000..65535 and non-kinds. */
export type KindClassification = 'regular' | 'replaceable' | 'ephemeral' | 'parameterized' | 'unknown';
/** The class of a kind (from the core's NIP-01 ranges). */
export function classifyKind(kind: number): KindClassification;
/** True when `event` is a well-formed event (validateEvent) of `kind`, or of one of the kinds given. */
export function isKind<T extends number>(event: unknown, kind: T | Array<T>): event is NostrEvent & { kind: T };

// Kind numbers by nostr-tools' names (its kinds.ts, 2.25); each is also the type of its value.
/** Kind 0. */
export declare const Metadata = 0;
export type Metadata = typeof Metadata;
/** Kind 1. */
export declare const ShortTextNote = 1;
export type ShortTextNote = typeof ShortTextNote;
/** Kind 2. */
export declare const RecommendRelay = 2;
export type RecommendRelay = typeof RecommendRelay;
/** Kind 3. */
export declare const Contacts = 3;
export type Contacts = typeof Contacts;
/** Kind 4. */
export declare const EncryptedDirectMessage = 4;
export type EncryptedDirectMessage = typeof EncryptedDirectMessage;
/** Kind 5. */
export declare const EventDeletion = 5;
export type EventDeletion = typeof EventDeletion;
/** Kind 6. */
export declare const Repost = 6;
export type Repost = typeof Repost;
/** Kind 7. */
export declare const Reaction = 7;
export type Reaction = typeof Reaction;
/** Kind 8. */
export declare const BadgeAward = 8;
export type BadgeAward = typeof BadgeAward;
/** Kind 9. */
export declare const ChatMessage = 9;
export type ChatMessage = typeof ChatMessage;
/** Kind 10. */
export declare const SimpleGroupThreadedReply = 10;
export type SimpleGroupThreadedReply = typeof SimpleGroupThreadedReply;
/** Kind 11. */
export declare const ForumThread = 11;
export type ForumThread = typeof ForumThread;
/** Kind 12. */
export declare const SimpleGroupReply = 12;
export type SimpleGroupReply = typeof SimpleGroupReply;
/** Kind 13. */
export declare const Seal = 13;
export type Seal = typeof Seal;
/** Kind 14. */
export declare const PrivateDirectMessage = 14;
export type PrivateDirectMessage = typeof PrivateDirectMessage;
/** Kind 15. */
export declare const FileMessage = 15;
export type FileMessage = typeof FileMessage;
/** Kind 16. */
export declare const GenericRepost = 16;
export type GenericRepost = typeof GenericRepost;
/** Kind 17. */
export declare const ReactionToWebsite = 17;
export type ReactionToWebsite = typeof ReactionToWebsite;
/** Kind 20. */
export declare const Photo = 20;
export type Photo = typeof Photo;
/** Kind 21. */
export declare const NormalVideo = 21;
export type NormalVideo = typeof NormalVideo;
/** Kind 22. */
export declare const ShortVideo = 22;
export type ShortVideo = typeof ShortVideo;
/** Kind 24. */
export declare const PublicMessage = 24;
export type PublicMessage = typeof PublicMessage;
/** Kind 40. */
export declare const ChannelCreation = 40;
export type ChannelCreation = typeof ChannelCreation;
/** Kind 41. */
export declare const ChannelMetadata = 41;
export type ChannelMetadata = typeof ChannelMetadata;
/** Kind 42. */
export declare const ChannelMessage = 42;
export type ChannelMessage = typeof ChannelMessage;
/** Kind 43. */
export declare const ChannelHideMessage = 43;
export type ChannelHideMessage = typeof ChannelHideMessage;
/** Kind 44. */
export declare const ChannelMuteUser = 44;
export type ChannelMuteUser = typeof ChannelMuteUser;
/** Kind 54. */
export declare const PodcastEpisode = 54;
export type PodcastEpisode = typeof PodcastEpisode;
/** Kind 64. */
export declare const Chess = 64;
export type Chess = typeof Chess;
/** Kind 818. */
export declare const MergeRequests = 818;
export type MergeRequests = typeof MergeRequests;
/** Kind 1018. */
export declare const PollResponse = 1018;
export type PollResponse = typeof PollResponse;
/** Kind 1021. */
export declare const Bid = 1021;
export type Bid = typeof Bid;
/** Kind 1022. */
export declare const BidConfirmation = 1022;
export type BidConfirmation = typeof BidConfirmation;
/** Kind 1040. */
export declare const OpenTimestamps = 1040;
export type OpenTimestamps = typeof OpenTimestamps;
/** Kind 1059. */
export declare const GiftWrap = 1059;
export type GiftWrap = typeof GiftWrap;
/** Kind 1063. */
export declare const FileMetadata = 1063;
export type FileMetadata = typeof FileMetadata;
/** Kind 1068. */
export declare const Poll = 1068;
export type Poll = typeof Poll;
/** Kind 1111. */
export declare const Comment = 1111;
export type Comment = typeof Comment;
/** Kind 1222. */
export declare const Voice = 1222;
export type Voice = typeof Voice;
/** Kind 1227. */
export declare const Scroll = 1227;
export type Scroll = typeof Scroll;
/** Kind 1244. */
export declare const VoiceComment = 1244;
export type VoiceComment = typeof VoiceComment;
/** Kind 1311. */
export declare const LiveChatMessage = 1311;
export type LiveChatMessage = typeof LiveChatMessage;
/** Kind 1337. */
export declare const CodeSnippet = 1337;
export type CodeSnippet = typeof CodeSnippet;
/** Kind 1617. */
export declare const Patch = 1617;
export type Patch = typeof Patch;
/** Kind 1618. */
export declare const GitPullRequest = 1618;
export type GitPullRequest = typeof GitPullRequest;
/** Kind 1619. */
export declare const GitPullRequestUpdate = 1619;
export type GitPullRequestUpdate = typeof GitPullRequestUpdate;
/** Kind 1621. */
export declare const Issue = 1621;
export type Issue = typeof Issue;
/** Kind 1622. */
export declare const Reply = 1622;
export type Reply = typeof Reply;
/** Kind 1630. */
export declare const StatusOpen = 1630;
export type StatusOpen = typeof StatusOpen;
/** Kind 1631. */
export declare const StatusApplied = 1631;
export type StatusApplied = typeof StatusApplied;
/** Kind 1632. */
export declare const StatusClosed = 1632;
export type StatusClosed = typeof StatusClosed;
/** Kind 1633. */
export declare const StatusDraft = 1633;
export type StatusDraft = typeof StatusDraft;
/** Kind 1971. */
export declare const ProblemTracker = 1971;
export type ProblemTracker = typeof ProblemTracker;
/** Kind 1984. */
export declare const Report = 1984;
export type Report = typeof Report;
/** Kind 1984. */
export declare const Reporting = 1984;
export type Reporting = typeof Reporting;
/** Kind 1985. */
export declare const Label = 1985;
export type Label = typeof Label;
/** Kind 1986. */
export declare const RelayReviews = 1986;
export type RelayReviews = typeof RelayReviews;
/** Kind 1987. */
export declare const AIEmbeddings = 1987;
export type AIEmbeddings = typeof AIEmbeddings;
/** Kind 2003. */
export declare const Torrent = 2003;
export type Torrent = typeof Torrent;
/** Kind 2004. */
export declare const TorrentComment = 2004;
export type TorrentComment = typeof TorrentComment;
/** Kind 2022. */
export declare const CoinjoinPool = 2022;
export type CoinjoinPool = typeof CoinjoinPool;
/** Kind 4454. */
export declare const DecoupledKeyClientAnnouncement = 4454;
export type DecoupledKeyClientAnnouncement = typeof DecoupledKeyClientAnnouncement;
/** Kind 4455. */
export declare const DecoupledEncryptionKeyDistribution = 4455;
export type DecoupledEncryptionKeyDistribution = typeof DecoupledEncryptionKeyDistribution;
/** Kind 4550. */
export declare const CommunityPostApproval = 4550;
export type CommunityPostApproval = typeof CommunityPostApproval;
/** Kind 5999. */
export declare const JobRequest = 5999;
export type JobRequest = typeof JobRequest;
/** Kind 6999. */
export declare const JobResult = 6999;
export type JobResult = typeof JobResult;
/** Kind 7000. */
export declare const JobFeedback = 7000;
export type JobFeedback = typeof JobFeedback;
/** Kind 7374. */
export declare const ReservedCashuWalletTokens = 7374;
export type ReservedCashuWalletTokens = typeof ReservedCashuWalletTokens;
/** Kind 7375. */
export declare const CashuWalletTokens = 7375;
export type CashuWalletTokens = typeof CashuWalletTokens;
/** Kind 7376. */
export declare const CashuWalletHistory = 7376;
export type CashuWalletHistory = typeof CashuWalletHistory;
/** Kind 7516. */
export declare const GeocacheLog = 7516;
export type GeocacheLog = typeof GeocacheLog;
/** Kind 7517. */
export declare const GeocacheProofOfFind = 7517;
export type GeocacheProofOfFind = typeof GeocacheProofOfFind;
/** Kind 9000. */
export declare const SimpleGroupPutUser = 9000;
export type SimpleGroupPutUser = typeof SimpleGroupPutUser;
/** Kind 9001. */
export declare const SimpleGroupRemoveUser = 9001;
export type SimpleGroupRemoveUser = typeof SimpleGroupRemoveUser;
/** Kind 9002. */
export declare const SimpleGroupEditMetadata = 9002;
export type SimpleGroupEditMetadata = typeof SimpleGroupEditMetadata;
/** Kind 9005. */
export declare const SimpleGroupDeleteEvent = 9005;
export type SimpleGroupDeleteEvent = typeof SimpleGroupDeleteEvent;
/** Kind 9007. */
export declare const SimpleGroupCreateGroup = 9007;
export type SimpleGroupCreateGroup = typeof SimpleGroupCreateGroup;
/** Kind 9008. */
export declare const SimpleGroupDeleteGroup = 9008;
export type SimpleGroupDeleteGroup = typeof SimpleGroupDeleteGroup;
/** Kind 9009. */
export declare const SimpleGroupCreateInvite = 9009;
export type SimpleGroupCreateInvite = typeof SimpleGroupCreateInvite;
/** Kind 9021. */
export declare const SimpleGroupJoinRequest = 9021;
export type SimpleGroupJoinRequest = typeof SimpleGroupJoinRequest;
/** Kind 9022. */
export declare const SimpleGroupLeaveRequest = 9022;
export type SimpleGroupLeaveRequest = typeof SimpleGroupLeaveRequest;
/** Kind 9041. */
export declare const ZapGoal = 9041;
export type ZapGoal = typeof ZapGoal;
/** Kind 9321. */
export declare const NutZap = 9321;
export type NutZap = typeof NutZap;
/** Kind 9467. */
export declare const TidalLogin = 9467;
export type TidalLogin = typeof TidalLogin;
/** Kind 9734. */
export declare const ZapRequest = 9734;
export type ZapRequest = typeof ZapRequest;
/** Kind 9735. */
export declare const Zap = 9735;
export type Zap = typeof Zap;
/** Kind 9802. */
export declare const Highlights = 9802;
export type Highlights = typeof Highlights;
/** Kind 10000. */
export declare const Mutelist = 10000;
export type Mutelist = typeof Mutelist;
/** Kind 10001. */
export declare const Pinlist = 10001;
export type Pinlist = typeof Pinlist;
/** Kind 10002. */
export declare const RelayList = 10002;
export type RelayList = typeof RelayList;
/** Kind 10003. */
export declare const BookmarkList = 10003;
export type BookmarkList = typeof BookmarkList;
/** Kind 10004. */
export declare const CommunitiesList = 10004;
export type CommunitiesList = typeof CommunitiesList;
/** Kind 10005. */
export declare const PublicChatsList = 10005;
export type PublicChatsList = typeof PublicChatsList;
/** Kind 10006. */
export declare const BlockedRelaysList = 10006;
export type BlockedRelaysList = typeof BlockedRelaysList;
/** Kind 10007. */
export declare const SearchRelaysList = 10007;
export type SearchRelaysList = typeof SearchRelaysList;
/** Kind 10009. */
export declare const SimpleGroupList = 10009;
export type SimpleGroupList = typeof SimpleGroupList;
/** Kind 10012. */
export declare const FavoriteRelays = 10012;
export type FavoriteRelays = typeof FavoriteRelays;
/** Kind 10013. */
export declare const PrivateEventRelayList = 10013;
export type PrivateEventRelayList = typeof PrivateEventRelayList;
/** Kind 10015. */
export declare const InterestsList = 10015;
export type InterestsList = typeof InterestsList;
/** Kind 10019. */
export declare const NutZapInfo = 10019;
export type NutZapInfo = typeof NutZapInfo;
/** Kind 10020. */
export declare const MediaFollows = 10020;
export type MediaFollows = typeof MediaFollows;
/** Kind 10021. */
export declare const FavoriteFollowSets = 10021;
export type FavoriteFollowSets = typeof FavoriteFollowSets;
/** Kind 10030. */
export declare const UserEmojiList = 10030;
export type UserEmojiList = typeof UserEmojiList;
/** Kind 10044. */
export declare const DecoupledKeyAnnouncement = 10044;
export type DecoupledKeyAnnouncement = typeof DecoupledKeyAnnouncement;
/** Kind 10050. */
export declare const DirectMessageRelaysList = 10050;
export type DirectMessageRelaysList = typeof DirectMessageRelaysList;
/** Kind 10054. */
export declare const FavoritePodcasts = 10054;
export type FavoritePodcasts = typeof FavoritePodcasts;
/** Kind 10063. */
export declare const BlossomServerList = 10063;
export type BlossomServerList = typeof BlossomServerList;
/** Kind 10096. */
export declare const FileServerPreference = 10096;
export type FileServerPreference = typeof FileServerPreference;
/** Kind 10101. */
export declare const GoodWikiAuthorList = 10101;
export type GoodWikiAuthorList = typeof GoodWikiAuthorList;
/** Kind 10102. */
export declare const GoodWikiRelayList = 10102;
export type GoodWikiRelayList = typeof GoodWikiRelayList;
/** Kind 10154. */
export declare const PodcastMetadata = 10154;
export type PodcastMetadata = typeof PodcastMetadata;
/** Kind 10164. */
export declare const AuthoredPodcasts = 10164;
export type AuthoredPodcasts = typeof AuthoredPodcasts;
/** Kind 10166. */
export declare const RelayMonitorAnnouncement = 10166;
export type RelayMonitorAnnouncement = typeof RelayMonitorAnnouncement;
/** Kind 10312. */
export declare const RoomPresence = 10312;
export type RoomPresence = typeof RoomPresence;
/** Kind 10317. */
export declare const UserGraspList = 10317;
export type UserGraspList = typeof UserGraspList;
/** Kind 10377. */
export declare const ProxyAnnouncement = 10377;
export type ProxyAnnouncement = typeof ProxyAnnouncement;
/** Kind 11111. */
export declare const TransportMethodAnnouncement = 11111;
export type TransportMethodAnnouncement = typeof TransportMethodAnnouncement;
/** Kind 13194. */
export declare const NWCWalletInfo = 13194;
export type NWCWalletInfo = typeof NWCWalletInfo;
/** Kind 15128. */
export declare const NsiteRoot = 15128;
export type NsiteRoot = typeof NsiteRoot;
/** Kind 17375. */
export declare const CashuWalletEvent = 17375;
export type CashuWalletEvent = typeof CashuWalletEvent;
/** Kind 21000. */
export declare const LightningPubRPC = 21000;
export type LightningPubRPC = typeof LightningPubRPC;
/** Kind 22242. */
export declare const ClientAuth = 22242;
export type ClientAuth = typeof ClientAuth;
/** Kind 23194. */
export declare const NWCWalletRequest = 23194;
export type NWCWalletRequest = typeof NWCWalletRequest;
/** Kind 23195. */
export declare const NWCWalletResponse = 23195;
export type NWCWalletResponse = typeof NWCWalletResponse;
/** Kind 24133. */
export declare const NostrConnect = 24133;
export type NostrConnect = typeof NostrConnect;
/** Kind 24242. */
export declare const BlobsAuth = 24242;
export type BlobsAuth = typeof BlobsAuth;
/** Kind 27235. */
export declare const HTTPAuth = 27235;
export type HTTPAuth = typeof HTTPAuth;
/** Kind 30000. */
export declare const Followsets = 30000;
export type Followsets = typeof Followsets;
/** Kind 30001. */
export declare const Genericlists = 30001;
export type Genericlists = typeof Genericlists;
/** Kind 30002. */
export declare const Relaysets = 30002;
export type Relaysets = typeof Relaysets;
/** Kind 30003. */
export declare const Bookmarksets = 30003;
export type Bookmarksets = typeof Bookmarksets;
/** Kind 30004. */
export declare const Curationsets = 30004;
export type Curationsets = typeof Curationsets;
/** Kind 30005. */
export declare const CuratedVideoSets = 30005;
export type CuratedVideoSets = typeof CuratedVideoSets;
/** Kind 30007. */
export declare const MuteSets = 30007;
export type MuteSets = typeof MuteSets;
/** Kind 30008. */
export declare const ProfileBadges = 30008;
export type ProfileBadges = typeof ProfileBadges;
/** Kind 30009. */
export declare const BadgeDefinition = 30009;
export type BadgeDefinition = typeof BadgeDefinition;
/** Kind 30015. */
export declare const Interestsets = 30015;
export type Interestsets = typeof Interestsets;
/** Kind 30017. */
export declare const CreateOrUpdateStall = 30017;
export type CreateOrUpdateStall = typeof CreateOrUpdateStall;
/** Kind 30018. */
export declare const CreateOrUpdateProduct = 30018;
export type CreateOrUpdateProduct = typeof CreateOrUpdateProduct;
/** Kind 30019. */
export declare const MarketplaceUI = 30019;
export type MarketplaceUI = typeof MarketplaceUI;
/** Kind 30020. */
export declare const ProductSoldAsAuction = 30020;
export type ProductSoldAsAuction = typeof ProductSoldAsAuction;
/** Kind 30023. */
export declare const LongFormArticle = 30023;
export type LongFormArticle = typeof LongFormArticle;
/** Kind 30024. */
export declare const DraftLong = 30024;
export type DraftLong = typeof DraftLong;
/** Kind 30030. */
export declare const Emojisets = 30030;
export type Emojisets = typeof Emojisets;
/** Kind 30040. */
export declare const ModularArticleHeader = 30040;
export type ModularArticleHeader = typeof ModularArticleHeader;
/** Kind 30041. */
export declare const ModularArticleContent = 30041;
export type ModularArticleContent = typeof ModularArticleContent;
/** Kind 30063. */
export declare const ReleaseArtifactSets = 30063;
export type ReleaseArtifactSets = typeof ReleaseArtifactSets;
/** Kind 30078. */
export declare const Application = 30078;
export type Application = typeof Application;
/** Kind 30166. */
export declare const RelayDiscovery = 30166;
export type RelayDiscovery = typeof RelayDiscovery;
/** Kind 30267. */
export declare const AppCurationSet = 30267;
export type AppCurationSet = typeof AppCurationSet;
/** Kind 30311. */
export declare const LiveEvent = 30311;
export type LiveEvent = typeof LiveEvent;
/** Kind 30312. */
export declare const InteractiveRoom = 30312;
export type InteractiveRoom = typeof InteractiveRoom;
/** Kind 30313. */
export declare const ConferenceEvent = 30313;
export type ConferenceEvent = typeof ConferenceEvent;
/** Kind 30315. */
export declare const UserStatuses = 30315;
export type UserStatuses = typeof UserStatuses;
/** Kind 30388. */
export declare const SlideSet = 30388;
export type SlideSet = typeof SlideSet;
/** Kind 30402. */
export declare const ClassifiedListing = 30402;
export type ClassifiedListing = typeof ClassifiedListing;
/** Kind 30403. */
export declare const DraftClassifiedListing = 30403;
export type DraftClassifiedListing = typeof DraftClassifiedListing;
/** Kind 30617. */
export declare const RepositoryAnnouncement = 30617;
export type RepositoryAnnouncement = typeof RepositoryAnnouncement;
/** Kind 30618. */
export declare const RepositoryState = 30618;
export type RepositoryState = typeof RepositoryState;
/** Kind 30818. */
export declare const WikiArticle = 30818;
export type WikiArticle = typeof WikiArticle;
/** Kind 30819. */
export declare const Redirects = 30819;
export type Redirects = typeof Redirects;
/** Kind 31234. */
export declare const DraftEvent = 31234;
export type DraftEvent = typeof DraftEvent;
/** Kind 31388. */
export declare const LinkSet = 31388;
export type LinkSet = typeof LinkSet;
/** Kind 31890. */
export declare const Feed = 31890;
export type Feed = typeof Feed;
/** Kind 31922. */
export declare const Date = 31922;
export type Date = typeof Date;
/** Kind 31923. */
export declare const Time = 31923;
export type Time = typeof Time;
/** Kind 31924. */
export declare const Calendar = 31924;
export type Calendar = typeof Calendar;
/** Kind 31925. */
export declare const CalendarEventRSVP = 31925;
export type CalendarEventRSVP = typeof CalendarEventRSVP;
/** Kind 31987. */
export declare const RelayReview = 31987;
export type RelayReview = typeof RelayReview;
/** Kind 31989. */
export declare const Handlerrecommendation = 31989;
export type Handlerrecommendation = typeof Handlerrecommendation;
/** Kind 31990. */
export declare const Handlerinformation = 31990;
export type Handlerinformation = typeof Handlerinformation;
/** Kind 32267. */
export declare const SoftwareApplication = 32267;
export type SoftwareApplication = typeof SoftwareApplication;
/** Kind 34128. */
export declare const LegacyNsiteFile = 34128;
export type LegacyNsiteFile = typeof LegacyNsiteFile;
/** Kind 34237. */
export declare const VideoViewEvent = 34237;
export type VideoViewEvent = typeof VideoViewEvent;
/** Kind 34550. */
export declare const CommunityDefinition = 34550;
export type CommunityDefinition = typeof CommunityDefinition;
/** Kind 35128. */
export declare const NsiteNamed = 35128;
export type NsiteNamed = typeof NsiteNamed;
/** Kind 37515. */
export declare const GeocacheListing = 37515;
export type GeocacheListing = typeof GeocacheListing;
/** Kind 37516. */
export declare const GeocacheLogEntry = 37516;
export type GeocacheLogEntry = typeof GeocacheLogEntry;
/** Kind 38172. */
export declare const CashuMintAnnouncement = 38172;
export type CashuMintAnnouncement = typeof CashuMintAnnouncement;
/** Kind 38173. */
export declare const FedimintAnnouncement = 38173;
export type FedimintAnnouncement = typeof FedimintAnnouncement;
/** Kind 38383. */
export declare const PeerToPeerOrderEvents = 38383;
export type PeerToPeerOrderEvents = typeof PeerToPeerOrderEvents;
/** Kind 39000. */
export declare const GroupMetadata = 39000;
export type GroupMetadata = typeof GroupMetadata;
/** Kind 39001. */
export declare const SimpleGroupAdmins = 39001;
export type SimpleGroupAdmins = typeof SimpleGroupAdmins;
/** Kind 39002. */
export declare const SimpleGroupMembers = 39002;
export type SimpleGroupMembers = typeof SimpleGroupMembers;
/** Kind 39003. */
export declare const SimpleGroupRoles = 39003;
export type SimpleGroupRoles = typeof SimpleGroupRoles;
/** Kind 39004. */
export declare const SimpleGroupLiveKitParticipants = 39004;
export type SimpleGroupLiveKitParticipants = typeof SimpleGroupLiveKitParticipants;
/** Kind 39089. */
export declare const StarterPacks = 39089;
export type StarterPacks = typeof StarterPacks;
/** Kind 39092. */
export declare const MediaStarterPacks = 39092;
export type MediaStarterPacks = typeof MediaStarterPacks;
/** Kind 39701. */
export declare const WebBookmarks = 39701;
export type WebBookmarks = typeof WebBookmarks;
