// The privacy-first switch (NIP-59 gift-wrapped prompts), in one place. The client on this
// branch has no privacy profile yet, so the switch is shown (when the agent advertises
// supports_nip59) but stays disabled; when prompt() gains it, set CLIENT_HAS_NIP59 and adjust
// promptPrivacyOptions to the option's final name.
export const CLIENT_HAS_NIP59 = false;

/** Whether the switch can be used with this agent: `{ shown, usable, why }`. */
export function privacyAvailability(info) {
  if (!info?.supports_nip59) return { shown: false, usable: false, why: 'this agent does not accept NIP-59 gift wraps' };
  if (!CLIENT_HAS_NIP59) return { shown: true, usable: false, why: 'the client library does not send gift-wrapped prompts yet' };
  return { shown: true, usable: true, why: '' };
}

/** The options merged into prompt() when the switch is on. */
export function promptPrivacyOptions(enabled) {
  return enabled && CLIENT_HAS_NIP59 ? { privacy: 'nip59' } : {};
}
