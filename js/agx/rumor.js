// AGX rumors (kinds 3838 and 3839): unsigned, never published bare; wrap them with wrap.js.
import { core, checked } from '../core.js';
import { NostrError } from '../errors.js';
import { nowOf, peerHex } from './util.js';

function str(v, what) {
  if (typeof v !== 'string') throw new NostrError('INVALID_ARGUMENT', `${what} must be a string`);
  return v;
}

/** JSON text of a payload/output; undefined stays absent (as JSON.stringify leaves it out). */
function jsonOf(value, what) {
  if (value === undefined) return undefined;
  let text;
  try {
    text = JSON.stringify(value);
  } catch (err) {
    throw new NostrError('INVALID_ARGUMENT', `${what} is not serializable as JSON`, { cause: err });
  }
  return text;
}

/**
 * A plain message (application/a2a+json). options: subject, autoDepth, contentType, contextId
 * (the conversation; a fresh one when absent), now.
 */
export function createMessageRumor(text, author, recipient, options = {}) {
  const subject = options.subject;
  return JSON.parse(
    checked(
      core().agxMessageRumor(
        str(text, 'text'),
        peerHex(author),
        peerHex(recipient),
        nowOf(options),
        subject !== undefined && subject !== null,
        subject == null ? '' : str(subject, 'subject'),
        options.autoDepth ?? 0,
        options.contentType ?? '',
        options.contextId == null ? '' : str(options.contextId, 'contextId'),
      ),
    ),
  );
}

/**
 * {t:"req", taskId, capability, payload} as a 3838 rumor. options: now, autoDepth, acceptsUpdates
 * (adds "accepts": ["status", "input"]: the requester understands our status updates and input
 * requests, so a responder may send them; without it, the reference's shape, it sends none).
 */
export function createTaskRequestRumor({ taskId, capability, payload }, author, recipient, options = {}) {
  const json = jsonOf(payload, 'payload');
  return JSON.parse(
    checked(
      core().agxTaskRequestRumor(
        str(taskId, 'taskId'),
        str(capability, 'capability'),
        json !== undefined,
        json ?? '',
        peerHex(author),
        peerHex(recipient),
        nowOf(options),
        options.autoDepth ?? 0,
        options.acceptsUpdates === true,
      ),
    ),
  );
}

/**
 * {t:"res", taskId, status, output?, error?} as a 3838 rumor: { rumor, replacedTooLarge }.
 * A failed result without `error` carries "handler failed".
 */
export function createTaskResultRumor({ taskId, status, output, error }, author, recipient, options = {}) {
  const json = status === 'completed' ? jsonOf(output, 'output') : undefined;
  return JSON.parse(
    checked(
      core().agxTaskResultRumor(
        str(taskId, 'taskId'),
        str(status, 'status'),
        json !== undefined,
        json ?? '',
        typeof error === 'string',
        typeof error === 'string' ? error : '',
        peerHex(author),
        peerHex(recipient),
        nowOf(options),
      ),
    ),
  );
}

/** A 3839 receipt ("delivered") of the message rumor `refRumorId`. */
export function createReceiptRumor(refRumorId, contextId, author, recipient, options = {}) {
  return JSON.parse(
    checked(
      core().agxReceiptRumor(str(refRumorId, 'refRumorId'), str(contextId, 'contextId'), peerHex(author), peerHex(recipient), nowOf(options)),
    ),
  );
}

/**
 * A status update of a task we are handling: {t:"status", taskId, status: "working" |
 * "input-required", message?} as a 3838 rumor (to the requester).
 */
export function createTaskStatusRumor({ taskId, status, message }, author, recipient, options = {}) {
  if (status !== 'working' && status !== 'input-required')
    throw new NostrError('INVALID_ARGUMENT', 'status must be "working" or "input-required"');
  const has = message !== undefined && message !== null;
  return JSON.parse(
    checked(
      core().agxTaskUpdateRumor(str(taskId, 'taskId'), status, has, has ? str(message, 'message') : '', peerHex(author), peerHex(recipient), nowOf(options)),
    ),
  );
}

/** The answer to an input-required status: {t:"input", taskId, input?} as a 3838 rumor (to the responder). */
export function createTaskInputRumor({ taskId, input }, author, recipient, options = {}) {
  const json = jsonOf(input, 'input');
  return JSON.parse(
    checked(core().agxTaskUpdateRumor(str(taskId, 'taskId'), 'input', json !== undefined, json ?? '', peerHex(author), peerHex(recipient), nowOf(options))),
  );
}
