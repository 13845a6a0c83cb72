// NIP-01 kinds: nostr-tools' `kinds` module (2.25), the same names and values, and the kind
// classes. The ranges are the core's (classify_kind in src/event/event.cpp), one copy of the rule.
import { core } from './core.js';
import { validateEvent } from './event.js';

const CLASSES = ['regular', 'replaceable', 'ephemeral', 'parameterized', 'unknown'];

function classOf(kind) {
  return typeof kind === 'number' ? core().kindClass(kind) : 4;
}

/** Regular: 1..9999 except 3 (relays store them all). False for anything that is not a kind. */
export function isRegularKind(kind) {
  return classOf(kind) === 0;
}

/** Replaceable: 0, 3 and 10000..19999 (relays keep the latest per pubkey and kind). */
export function isReplaceableKind(kind) {
  return classOf(kind) === 1;
}

/** Ephemeral: 20000..29999 (relays do not store them). */
export function isEphemeralKind(kind) {
  return classOf(kind) === 2;
}

/** Addressable: 30000..39999 (relays keep the latest per pubkey, kind and `d` tag). */
export function isAddressableKind(kind) {
  return classOf(kind) === 3;
}

/** 'regular', 'replaceable', 'ephemeral', 'parameterized' (addressable) or 'unknown'. */
export function classifyKind(kind) {
  return CLASSES[classOf(kind)];
}

/** True when `event` is a well-formed event of `kind` (or of one of `kind`'s kinds). */
export function isKind(event, kind) {
  const kinds = Array.isArray(kind) ? kind : [kind];
  return validateEvent(event) && kinds.includes(event.kind);
}

// Kind numbers by nostr-tools' names (its kinds.ts, 2.25; some are drafts or app conventions).
export const Metadata = 0;
export const ShortTextNote = 1;
export const RecommendRelay = 2;
export const Contacts = 3;
export const EncryptedDirectMessage = 4;
export const EventDeletion = 5;
export const Repost = 6;
export const Reaction = 7;
export const BadgeAward = 8;
export const ChatMessage = 9;
export const SimpleGroupThreadedReply = 10;
export const ForumThread = 11;
export const SimpleGroupReply = 12;
export const Seal = 13;
export const PrivateDirectMessage = 14;
export const FileMessage = 15;
export const GenericRepost = 16;
export const ReactionToWebsite = 17;
export const Photo = 20;
export const NormalVideo = 21;
export const ShortVideo = 22;
export const PublicMessage = 24;
export const ChannelCreation = 40;
export const ChannelMetadata = 41;
export const ChannelMessage = 42;
export const ChannelHideMessage = 43;
export const ChannelMuteUser = 44;
export const PodcastEpisode = 54;
export const Chess = 64;
export const MergeRequests = 818;
export const PollResponse = 1018;
export const Bid = 1021;
export const BidConfirmation = 1022;
export const OpenTimestamps = 1040;
export const GiftWrap = 1059;
export const FileMetadata = 1063;
export const Poll = 1068;
export const Comment = 1111;
export const Voice = 1222;
export const Scroll = 1227;
export const VoiceComment = 1244;
export const LiveChatMessage = 1311;
export const CodeSnippet = 1337;
export const Patch = 1617;
export const GitPullRequest = 1618;
export const GitPullRequestUpdate = 1619;
export const Issue = 1621;
export const Reply = 1622;
export const StatusOpen = 1630;
export const StatusApplied = 1631;
export const StatusClosed = 1632;
export const StatusDraft = 1633;
export const ProblemTracker = 1971;
export const Report = 1984;
export const Reporting = 1984;
export const Label = 1985;
export const RelayReviews = 1986;
export const AIEmbeddings = 1987;
export const Torrent = 2003;
export const TorrentComment = 2004;
export const CoinjoinPool = 2022;
export const DecoupledKeyClientAnnouncement = 4454;
export const DecoupledEncryptionKeyDistribution = 4455;
export const CommunityPostApproval = 4550;
export const JobRequest = 5999;
export const JobResult = 6999;
export const JobFeedback = 7000;
export const ReservedCashuWalletTokens = 7374;
export const CashuWalletTokens = 7375;
export const CashuWalletHistory = 7376;
export const GeocacheLog = 7516;
export const GeocacheProofOfFind = 7517;
export const SimpleGroupPutUser = 9000;
export const SimpleGroupRemoveUser = 9001;
export const SimpleGroupEditMetadata = 9002;
export const SimpleGroupDeleteEvent = 9005;
export const SimpleGroupCreateGroup = 9007;
export const SimpleGroupDeleteGroup = 9008;
export const SimpleGroupCreateInvite = 9009;
export const SimpleGroupJoinRequest = 9021;
export const SimpleGroupLeaveRequest = 9022;
export const ZapGoal = 9041;
export const NutZap = 9321;
export const TidalLogin = 9467;
export const ZapRequest = 9734;
export const Zap = 9735;
export const Highlights = 9802;
export const Mutelist = 10000;
export const Pinlist = 10001;
export const RelayList = 10002;
export const BookmarkList = 10003;
export const CommunitiesList = 10004;
export const PublicChatsList = 10005;
export const BlockedRelaysList = 10006;
export const SearchRelaysList = 10007;
export const SimpleGroupList = 10009;
export const FavoriteRelays = 10012;
export const PrivateEventRelayList = 10013;
export const InterestsList = 10015;
export const NutZapInfo = 10019;
export const MediaFollows = 10020;
export const FavoriteFollowSets = 10021;
export const UserEmojiList = 10030;
export const DecoupledKeyAnnouncement = 10044;
export const DirectMessageRelaysList = 10050;
export const FavoritePodcasts = 10054;
export const BlossomServerList = 10063;
export const FileServerPreference = 10096;
export const GoodWikiAuthorList = 10101;
export const GoodWikiRelayList = 10102;
export const PodcastMetadata = 10154;
export const AuthoredPodcasts = 10164;
export const RelayMonitorAnnouncement = 10166;
export const RoomPresence = 10312;
export const UserGraspList = 10317;
export const ProxyAnnouncement = 10377;
export const TransportMethodAnnouncement = 11111;
export const NWCWalletInfo = 13194;
export const NsiteRoot = 15128;
export const CashuWalletEvent = 17375;
export const LightningPubRPC = 21000;
export const ClientAuth = 22242;
export const NWCWalletRequest = 23194;
export const NWCWalletResponse = 23195;
export const NostrConnect = 24133;
export const BlobsAuth = 24242;
export const HTTPAuth = 27235;
export const Followsets = 30000;
export const Genericlists = 30001;
export const Relaysets = 30002;
export const Bookmarksets = 30003;
export const Curationsets = 30004;
export const CuratedVideoSets = 30005;
export const MuteSets = 30007;
export const ProfileBadges = 30008;
export const BadgeDefinition = 30009;
export const Interestsets = 30015;
export const CreateOrUpdateStall = 30017;
export const CreateOrUpdateProduct = 30018;
export const MarketplaceUI = 30019;
export const ProductSoldAsAuction = 30020;
export const LongFormArticle = 30023;
export const DraftLong = 30024;
export const Emojisets = 30030;
export const ModularArticleHeader = 30040;
export const ModularArticleContent = 30041;
export const ReleaseArtifactSets = 30063;
export const Application = 30078;
export const RelayDiscovery = 30166;
export const AppCurationSet = 30267;
export const LiveEvent = 30311;
export const InteractiveRoom = 30312;
export const ConferenceEvent = 30313;
export const UserStatuses = 30315;
export const SlideSet = 30388;
export const ClassifiedListing = 30402;
export const DraftClassifiedListing = 30403;
export const RepositoryAnnouncement = 30617;
export const RepositoryState = 30618;
export const WikiArticle = 30818;
export const Redirects = 30819;
export const DraftEvent = 31234;
export const LinkSet = 31388;
export const Feed = 31890;
export const Date = 31922;
export const Time = 31923;
export const Calendar = 31924;
export const CalendarEventRSVP = 31925;
export const RelayReview = 31987;
export const Handlerrecommendation = 31989;
export const Handlerinformation = 31990;
export const SoftwareApplication = 32267;
export const LegacyNsiteFile = 34128;
export const VideoViewEvent = 34237;
export const CommunityDefinition = 34550;
export const NsiteNamed = 35128;
export const GeocacheListing = 37515;
export const GeocacheLogEntry = 37516;
export const CashuMintAnnouncement = 38172;
export const FedimintAnnouncement = 38173;
export const PeerToPeerOrderEvents = 38383;
export const GroupMetadata = 39000;
export const SimpleGroupAdmins = 39001;
export const SimpleGroupMembers = 39002;
export const SimpleGroupRoles = 39003;
export const SimpleGroupLiveKitParticipants = 39004;
export const StarterPacks = 39089;
export const MediaStarterPacks = 39092;
export const WebBookmarks = 39701;
