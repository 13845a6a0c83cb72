// The demo agent's parts in Node: the calculator's parser, the unit converter, the offline model's
// tool calls and errors, and the OpenAI-compatible adapter against a local HTTP server that
// speaks the streamed chat-completions protocol (SSE), tool calls included.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { AgentError } from 'nostr-agents';
import { createTools, evaluate, convert, formatNumber, ToolError } from '../../web-demo/agent/tools.js';
import { createDemoModel, createOpenAiModel, tokens } from '../../web-demo/agent/model.js';
import { modelFromEnv } from '../../web-demo/agent/agent.js';

test('calculator: precedence, associativity, unary minus, functions, constants', () => {
  const cases = {
    '2*(3+4)': '14',
    '1 + 2 * 3': '7',
    '10 - 4 - 3': '3',
    '2^3^2': '512',
    '-2^2': '-4',
    '2^-1': '0.5',
    '0.1 + 0.2': '0.3',
    '7 % 3': '1',
    'sqrt(16) + max(1, 2) - min(3, 4)': '3',
    '2 × 3 ÷ 4': '1.5',
    '1e3 / 8': '125',
    'round(pi * 100)': '314',
    '--3': '3',
  };
  for (const [expr, want] of Object.entries(cases)) assert.equal(formatNumber(evaluate(expr)), want, expr);
});

test('calculator: anything that is not arithmetic is a ToolError, never evaluated', () => {
  for (const bad of ['', '   ', '2 +', '(1', '1)', 'abc', 'constructor', 'process.exit(1)', 'alert(1)', '1/0', '5 % 0', 'sqrt(1, 2)', '2 ** 3 @', '"1"', '1..2', '10^400', 'max(1)'])
    assert.throws(() => evaluate(bad), ToolError, bad);
  assert.throws(() => evaluate('('.repeat(200) + '1' + ')'.repeat(200)), /nested too deeply/);
  assert.throws(() => evaluate('1+'.repeat(300) + '1'), /longer than/);
  assert.throws(() => evaluate(42), ToolError);
});

test('unit converter: linear units, aliases, temperatures, and refusals', () => {
  assert.equal(formatNumber(convert(10, 'km', 'mi')), '6.21371192237');
  assert.equal(formatNumber(convert(1, 'mile', 'feet')), '5280');
  assert.equal(formatNumber(convert(100, 'c', 'f')), '212');
  assert.equal(formatNumber(convert(0, 'kelvin', 'celsius')), '-273.15');
  assert.equal(formatNumber(convert(2, 'lb', 'oz')), '32');
  assert.throws(() => convert(1, 'km', 'kg'), /cannot convert/);
  assert.throws(() => convert(1, 'c', 'km'), /cannot convert/);
  assert.throws(() => convert(1, 'parsec', 'km'), /unknown unit/);
  assert.throws(() => convert(Number.NaN, 'km', 'm'), ToolError);
  assert.throws(() => createTools().clock.run({ timezone: 'Mars/Olympus' }), /unknown time zone/);
  assert.deepEqual(createTools({ now: () => 0 }).clock.run({}).iso, '1970-01-01T00:00:00.000Z');
});

async function collect(gen) {
  const out = [];
  for await (const x of gen) out.push(x);
  return out;
}

test('demo model: streams token by token, calls tools when asked, refuses with a coded error', async () => {
  const model = createDemoModel({ tools: createTools(), tokenDelay: 0 });
  const hello = await collect(model.generate({ message: 'hi' }));
  const text = hello.filter((x) => typeof x === 'string');
  assert.ok(text.length > 20, 'many deltas');
  assert.deepEqual(tokens(text.join('')), text, 'each delta one token');

  const calc = await collect(model.generate({ message: 'what is 6 * 7?' }));
  const calls = calc.filter((x) => x.type === 'tool_call');
  assert.deepEqual(calls.map((c) => [c.name, c.phase]), [['calculator', 'start'], ['calculator', 'result']]);
  assert.deepEqual(calls[1].output, { expression: '6 * 7', result: '42' });
  assert.equal(calc.filter((x) => typeof x === 'string').join(''), '`6 * 7` = **42**');

  const bad = await collect(model.generate({ message: 'calculate 1/0' }));
  assert.equal(bad.find((x) => x.phase === 'result').success, false);
  assert.match(bad.filter((x) => typeof x === 'string').join(''), /division by zero/);

  const conv = await collect(model.generate({ message: 'convert 3 ft to in' }));
  assert.equal(conv.find((x) => x.phase === 'result').output.result, '36');

  await assert.rejects(collect(model.generate({ message: 'fail' })), (err) => err instanceof AgentError && err.code === 'RATE_LIMIT' && err.retryAfter === 5);

  const controller = new AbortController();
  const slow = createDemoModel({ tools: createTools(), tokenDelay: 5 });
  const got = [];
  for await (const x of slow.generate({ message: 'story', signal: controller.signal })) {
    if (typeof x === 'string') got.push(x);
    if (got.length === 3) controller.abort();
  }
  assert.equal(got.length, 3, 'stops at the abort');
});

/** A local OpenAI-compatible server: answers each POST with the next scripted SSE body. */
async function fakeProvider(script) {
  const requests = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      requests.push({ url: req.url, auth: req.headers.authorization, body: JSON.parse(body) });
      const step = script[requests.length - 1];
      if (step.status) {
        res.writeHead(step.status, step.headers ?? {});
        return res.end('{}');
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      for (const chunk of step.chunks) res.write(`data: ${JSON.stringify(chunk)}\n\n`);
      res.end('data: [DONE]\n\n');
    });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${server.address().port}/v1`, requests, close: () => new Promise((r) => server.close(r)) };
}

test('OpenAI-compatible adapter: streams content, runs tool calls, sends their results back', async () => {
  const delta = (d) => ({ choices: [{ index: 0, delta: d }] });
  const provider = await fakeProvider([
    {
      chunks: [
        delta({ role: 'assistant', tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'calculator', arguments: '{"expr' } }] }),
        delta({ tool_calls: [{ index: 0, function: { arguments: 'ession": "6*7"}' } }] }),
        { choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] },
      ],
    },
    { chunks: [delta({ content: 'It is ' }), delta({ content: '**42**.' }), { choices: [], usage: { prompt_tokens: 30, completion_tokens: 4 } }] },
  ]);
  try {
    const model = createOpenAiModel({ baseUrl: `${provider.url}/`, model: 'test-model', apiKey: 'k-123', tools: createTools() });
    const out = await collect(model.generate({ message: 'what is 6*7', history: [{ role: 'user', content: 'earlier' }, { role: 'assistant', content: 'yes' }] }));
    assert.equal(out.filter((x) => typeof x === 'string').join(''), 'It is **42**.');
    const result = out.find((x) => x.type === 'tool_call' && x.phase === 'result');
    assert.deepEqual(result.output, { expression: '6*7', result: '42' });
    assert.deepEqual(out.at(-1), { type: 'usage', input_tokens: 30, output_tokens: 4 });
    assert.equal(provider.requests.length, 2);
    const [first, second] = provider.requests;
    assert.equal(first.url, '/v1/chat/completions');
    assert.equal(first.auth, 'Bearer k-123');
    assert.equal(first.body.model, 'test-model');
    assert.equal(first.body.stream, true);
    assert.deepEqual(first.body.tools.map((t) => t.function.name), ['calculator', 'clock', 'unit_converter']);
    assert.deepEqual(first.body.messages.slice(1).map((m) => m.content), ['earlier', 'yes', 'what is 6*7']);
    assert.deepEqual(second.body.messages.at(-2).tool_calls, [{ id: 'call_1', type: 'function', function: { name: 'calculator', arguments: '{"expression": "6*7"}' } }]);
    assert.deepEqual(second.body.messages.at(-1), { role: 'tool', tool_call_id: 'call_1', content: '{"expression":"6*7","result":"42"}' });
  } finally {
    await provider.close();
  }
});

test('OpenAI-compatible adapter: 429 is RATE_LIMIT with retry_after, other failures MODEL_UNAVAILABLE', async () => {
  const provider = await fakeProvider([{ status: 429, headers: { 'retry-after': '7' } }, { status: 500 }]);
  try {
    const model = createOpenAiModel({ baseUrl: provider.url, model: 'm', tools: createTools() });
    await assert.rejects(collect(model.generate({ message: 'x' })), (e) => e instanceof AgentError && e.code === 'RATE_LIMIT' && e.retryAfter === 7);
    await assert.rejects(collect(model.generate({ message: 'x' })), (e) => e.code === 'MODEL_UNAVAILABLE' && /HTTP 500/.test(e.message));
    assert.equal(provider.requests[0].auth, undefined, 'no key, no Authorization header');
  } finally {
    await provider.close();
  }
  const gone = createOpenAiModel({ baseUrl: provider.url, model: 'm', tools: createTools() });
  await assert.rejects(collect(gone.generate({ message: 'x' })), (e) => e.code === 'MODEL_UNAVAILABLE' && !/k-/.test(e.message));
});

test('the model comes from the environment', () => {
  const tools = createTools();
  assert.equal(modelFromEnv({}, tools).name, 'demo-1');
  assert.equal(modelFromEnv({ NOSTR_AGENTS_LLM_BASE_URL: 'http://127.0.0.1:1/v1', NOSTR_AGENTS_LLM_MODEL: 'llama3' }, tools).name, 'llama3');
});
