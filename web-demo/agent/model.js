// The demo agent's models. Both are `async *generate({ message, history, thinking, signal })`
// yielding what serveAgent's handler yields (text deltas, status, tool_call, usage).
// - createDemoModel: deterministic and offline. It streams its answer token by token and calls a
//   tool when the message asks for one; a few commands exist for trying the page's features.
// - createOpenAiModel: any OpenAI-compatible /chat/completions endpoint (streamed, with tools).
import { AgentError } from 'nostr-agents';
import { ToolError } from './tools.js';

/** Resolves after `ms`, or at once when `signal` aborts. */
function pause(ms, signal) {
  if (ms <= 0 || signal?.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

/** Runs one tool, yielding its start and result tool_call updates; returns the output. */
async function* callTool(tools, name, args, now) {
  yield { type: 'status', state: 'tool_use', info: `calling ${name}` };
  yield { type: 'tool_call', name, phase: 'start', arguments: args };
  const started = now();
  let output;
  let success = true;
  try {
    if (!Object.hasOwn(tools, name)) throw new ToolError(`no tool named ${name}`);
    output = await tools[name].run(args);
  } catch (err) {
    if (!(err instanceof ToolError)) throw err;
    success = false;
    output = { error: err.message };
  }
  yield { type: 'tool_call', name, phase: 'result', output, success, duration_ms: Math.max(0, Math.round(now() - started)) };
  return { output, success };
}

const HELP = `Hello! I am the **nostr-agents demo agent**, a deterministic model that runs offline.
Every word you see arrived as its own encrypted Nostr event.

Try:
- \`calculate 2 * (3 + 4)\`: I call my **calculator** tool (a real parser, no eval)
- \`what time is it in Asia/Tokyo\`: the **clock** tool
- \`convert 10 km to mi\`: the **unit_converter** tool
- \`tell me a story\`: a long answer, to try the *cancel* button
- \`echo some text\`: I repeat it verbatim (try some HTML: it stays text)
- \`fail\`: an error with a \`retry_after\` countdown`;

const STORY = `Once upon a time, on a relay far away, an agent waited for prompts. ` +
  `Each prompt arrived sealed with NIP-44, and each answer went back the same way, word by word, ` +
  `so the person on the other side could watch it think. `.repeat(1) +
  Array.from({ length: 12 }, (_, i) =>
    `In chapter ${i + 1}, the agent counted the events it had sent, checked every sequence number twice, ` +
    `and wondered whether anyone would ever press cancel. `).join('') +
  `The end.`;

/** The whitespace-led tokens of `text`: joined back they are `text` exactly. */
export function tokens(text) {
  return text.match(/\s*\S+|\s+$/g) ?? [];
}

/**
 * The offline model. `tokenDelay` ms between deltas (0 for instant), `now` for tool durations.
 */
export function createDemoModel({ tools, tokenDelay = 30, now = () => performance.now() }) {
  const parseConvert = (m) => /\bconvert\s+(-?\d+(?:\.\d+)?)\s*([a-z°/]+)\s+(?:to|in|into)\s+([a-z°/]+)/i.exec(m);
  const parseCalc = (m) => {
    const asked = /\b(?:calculate|compute|eval(?:uate)?|what(?:'s| is))\s+(.+?)[?.!]*\s*$/i.exec(m);
    if (asked && /\d/.test(asked[1])) return asked[1];
    if (/^[\d\s+\-*/%^().,×÷]+$/.test(m.trim()) && /\d/.test(m) && /[+\-*/%^×÷]/.test(m)) return m.trim();
    return null;
  };

  async function* stream(text, signal) {
    const list = tokens(text);
    const step = Math.max(1, Math.ceil(list.length / 10));
    for (let i = 0; i < list.length; i++) {
      if (signal?.aborted) return;
      if (i > 0 && i % step === 0) yield { type: 'status', state: 'thinking', progress: Math.min(0.99, i / list.length) };
      yield list[i];
      await pause(tokenDelay, signal);
    }
  }

  return {
    name: 'demo-1',
    async *generate({ message, thinking, signal }) {
      const m = message.trim();
      yield { type: 'status', state: 'thinking', progress: 0, info: thinking ? `thinking (${thinking})` : 'thinking' };
      let text;
      let calc;
      let conv;
      if (/^fail\b/i.test(m)) {
        throw new AgentError('RATE_LIMIT', 'the demo agent refuses on request: try again shortly', { retryAfter: 5 });
      } else if (/^echo\s/i.test(m)) {
        text = m.replace(/^echo\s+/i, '');
      } else if (/\bstory\b/i.test(m)) {
        text = STORY;
      } else if ((conv = parseConvert(m))) {
        const args = { value: Number(conv[1]), from: conv[2], to: conv[3] };
        const { output, success } = yield* callTool(tools, 'unit_converter', args, now);
        text = success
          ? `${args.value} ${args.from} is **${output.result} ${args.to}**.`
          : `I could not convert that: ${output.error}.`;
      } else if ((calc = parseCalc(m))) {
        const { output, success } = yield* callTool(tools, 'calculator', { expression: calc }, now);
        text = success ? `\`${calc}\` = **${output.result}**` : `I could not calculate \`${calc}\`: ${output.error}.`;
      } else if (/\b(time|clock|date)\b/i.test(m)) {
        const tz = /\bin\s+([A-Za-z_]+\/[A-Za-z_]+|UTC)\b/.exec(m)?.[1] ?? 'UTC';
        const { output, success } = yield* callTool(tools, 'clock', { timezone: tz }, now);
        text = success ? `It is **${output.local}** (${output.iso}).` : `I could not read the clock: ${output.error}.`;
      } else {
        text = HELP;
      }
      if (signal?.aborted) return;
      yield* stream(text, signal);
      yield { type: 'usage', input_tokens: tokens(m).length, output_tokens: tokens(text).length };
    },
  };
}

/**
 * An OpenAI-compatible chat model: POST `${baseUrl}/chat/completions` with `stream: true` and the
 * agent's tools as functions; tool calls are run and their results sent back (up to
 * `maxToolRounds` rounds). `history` is the session's earlier turns ([{role, content}]).
 */
export function createOpenAiModel({ baseUrl, model, apiKey, tools, fetch: fetchImpl = globalThis.fetch, maxToolRounds = 4, system, now = () => performance.now() }) {
  if (!baseUrl || !model) throw new Error('createOpenAiModel: baseUrl and model are required');
  const url = `${baseUrl.replace(/\/+$/, '')}/chat/completions`;
  const functions = Object.entries(tools).map(([name, t]) => ({
    type: 'function',
    function: { name, description: t.description, parameters: t.input_schema },
  }));

  async function* sse(body) {
    const decoder = new TextDecoder();
    let buf = '';
    for await (const chunk of body) {
      buf += decoder.decode(chunk, { stream: true });
      let nl;
      while ((nl = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, nl).trim();
        buf = buf.slice(nl + 1);
        if (!line.startsWith('data:')) continue;
        const data = line.slice(5).trim();
        if (data === '[DONE]') return;
        try {
          yield JSON.parse(data);
        } catch {
          // a keep-alive or a line we do not understand
        }
      }
    }
  }

  return {
    name: model,
    async *generate({ message, history = [], thinking, signal }) {
      const messages = [
        { role: 'system', content: system ?? 'You are a helpful assistant reached over Nostr. Use the tools for arithmetic, the time and unit conversions. Answer in Markdown.' },
        ...history,
        { role: 'user', content: message },
      ];
      yield { type: 'status', state: 'thinking', progress: 0, info: thinking ? `thinking (${thinking})` : 'thinking' };
      let usage = null;
      for (let round = 0; round <= maxToolRounds; round++) {
        let res;
        try {
          res = await fetchImpl(url, {
            method: 'POST',
            headers: { 'content-type': 'application/json', ...(apiKey && { authorization: `Bearer ${apiKey}` }) },
            body: JSON.stringify({
              model,
              messages,
              stream: true,
              stream_options: { include_usage: true },
              ...(functions.length && round < maxToolRounds && { tools: functions }),
            }),
            signal,
          });
        } catch (err) {
          if (signal?.aborted) return;
          throw new AgentError('MODEL_UNAVAILABLE', 'the model provider could not be reached', { cause: err });
        }
        if (res.status === 429) {
          const retryAfter = Math.max(1, Math.ceil(Number(res.headers.get('retry-after')) || 10));
          throw new AgentError('RATE_LIMIT', 'the model provider is rate limiting', { retryAfter });
        }
        if (!res.ok || !res.body) throw new AgentError('MODEL_UNAVAILABLE', `the model provider answered HTTP ${res.status}`);
        const calls = []; // by index: { id, name, arguments }
        let content = '';
        for await (const chunk of sse(res.body)) {
          if (chunk.usage) usage = chunk.usage;
          const delta = chunk.choices?.[0]?.delta;
          if (!delta) continue;
          if (typeof delta.content === 'string' && delta.content.length > 0) {
            content += delta.content;
            yield delta.content;
          }
          for (const tc of delta.tool_calls ?? []) {
            const c = (calls[tc.index ?? 0] ??= { id: '', name: '', arguments: '' });
            if (tc.id) c.id = tc.id;
            if (tc.function?.name) c.name += tc.function.name;
            if (tc.function?.arguments) c.arguments += tc.function.arguments;
          }
        }
        if (signal?.aborted) return;
        const pending = calls.filter(Boolean);
        if (pending.length === 0) break;
        messages.push({
          role: 'assistant',
          content: content || null,
          tool_calls: pending.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } })),
        });
        for (const c of pending) {
          let args;
          try {
            args = JSON.parse(c.arguments || '{}');
          } catch {
            args = {};
          }
          const { output } = yield* callTool(tools, c.name, args, now);
          messages.push({ role: 'tool', tool_call_id: c.id, content: JSON.stringify(output) });
        }
      }
      if (usage) yield { type: 'usage', input_tokens: usage.prompt_tokens ?? 0, output_tokens: usage.completion_tokens ?? 0 };
    },
  };
}
