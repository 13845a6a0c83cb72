// The demo agent's tools: a calculator (a recursive-descent parser, never eval), a clock and a
// unit converter. Each tool is { description, input_schema, run(args) } and run() throws a
// ToolError with a message meant for the user on bad input.

export class ToolError extends Error {}

// --- Calculator: numbers, + - * / % ^ (right-associative), unary minus, parentheses, and a few
// functions and constants. Grammar:
//   expr   := term (('+' | '-') term)*
//   term   := unary (('*' | '/' | '%') unary)*
//   unary  := ('-' | '+') unary | power          (so -2^2 is -4)
//   power  := primary ('^' unary)?               (right-associative: 2^3^2 is 2^9)
//   primary:= number | name | name '(' expr (',' expr)* ')' | '(' expr ')'
const FUNCTIONS = {
  sqrt: [1, Math.sqrt],
  abs: [1, Math.abs],
  round: [1, Math.round],
  floor: [1, Math.floor],
  ceil: [1, Math.ceil],
  ln: [1, Math.log],
  log: [1, Math.log10],
  sin: [1, Math.sin],
  cos: [1, Math.cos],
  tan: [1, Math.tan],
  min: [2, Math.min],
  max: [2, Math.max],
};
const CONSTANTS = { pi: Math.PI, e: Math.E };
const MAX_EXPRESSION = 500;
const MAX_DEPTH = 64;

function tokenize(src) {
  const tokens = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i];
    if (c === ' ' || c === '\t' || c === '\n') {
      i++;
    } else if (/[0-9.]/.test(c)) {
      const m = /^(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?/.exec(src.slice(i));
      if (!m) throw new ToolError(`bad number at position ${i + 1}`);
      tokens.push({ t: 'num', v: Number(m[0]), at: i });
      i += m[0].length;
    } else if (/[a-zA-Z]/.test(c)) {
      const m = /^[a-zA-Z]+/.exec(src.slice(i));
      tokens.push({ t: 'name', v: m[0].toLowerCase(), at: i });
      i += m[0].length;
    } else if ('+-*/%^(),×÷'.includes(c)) {
      tokens.push({ t: 'op', v: c === '×' ? '*' : c === '÷' ? '/' : c, at: i });
      i++;
    } else {
      throw new ToolError(`unexpected character ${JSON.stringify(c)} at position ${i + 1}`);
    }
  }
  return tokens;
}

/** Evaluates an arithmetic expression; throws ToolError for anything else. */
export function evaluate(expression) {
  if (typeof expression !== 'string' || expression.trim() === '') throw new ToolError('empty expression');
  if (expression.length > MAX_EXPRESSION) throw new ToolError(`expression longer than ${MAX_EXPRESSION} characters`);
  const tokens = tokenize(expression);
  let pos = 0;
  let depth = 0;
  const peek = () => tokens[pos];
  const isOp = (v) => peek()?.t === 'op' && peek().v === v;
  const expect = (v) => {
    if (!isOp(v)) throw new ToolError(`expected "${v}"${peek() ? ` at position ${peek().at + 1}` : ' at the end'}`);
    pos++;
  };
  const nest = (fn) => {
    if (++depth > MAX_DEPTH) throw new ToolError('expression nested too deeply');
    try {
      return fn();
    } finally {
      depth--;
    }
  };
  const expr = () =>
    nest(() => {
      let v = term();
      while (isOp('+') || isOp('-')) v = tokens[pos++].v === '+' ? v + term() : v - term();
      return v;
    });
  const term = () => {
    let v = unary();
    while (isOp('*') || isOp('/') || isOp('%')) {
      const op = tokens[pos++].v;
      const r = unary();
      if ((op === '/' || op === '%') && r === 0) throw new ToolError('division by zero');
      v = op === '*' ? v * r : op === '/' ? v / r : v % r;
    }
    return v;
  };
  const power = () => {
    const base = primary();
    if (isOp('^')) {
      pos++;
      return base ** unary();
    }
    return base;
  };
  const unary = () =>
    nest(() => {
      if (isOp('-')) {
        pos++;
        return -unary();
      }
      if (isOp('+')) {
        pos++;
        return unary();
      }
      return power();
    });
  const primary = () => {
    const tok = peek();
    if (!tok) throw new ToolError('unexpected end of expression');
    if (tok.t === 'num') {
      pos++;
      return tok.v;
    }
    if (tok.t === 'op' && tok.v === '(') {
      pos++;
      const v = expr();
      expect(')');
      return v;
    }
    if (tok.t === 'name') {
      pos++;
      if (Object.hasOwn(FUNCTIONS, tok.v)) {
        const [arity, fn] = FUNCTIONS[tok.v];
        expect('(');
        const args = [expr()];
        while (isOp(',')) {
          pos++;
          args.push(expr());
        }
        expect(')');
        if (args.length !== arity) throw new ToolError(`${tok.v} takes ${arity} argument${arity > 1 ? 's' : ''}`);
        return fn(...args);
      }
      if (Object.hasOwn(CONSTANTS, tok.v)) return CONSTANTS[tok.v];
      throw new ToolError(`unknown name "${tok.v}"`);
    }
    throw new ToolError(`unexpected "${tok.v}" at position ${tok.at + 1}`);
  };
  const value = expr();
  if (pos < tokens.length) throw new ToolError(`unexpected "${tokens[pos].v}" at position ${tokens[pos].at + 1}`);
  if (!Number.isFinite(value)) throw new ToolError('the result is not a finite number');
  return value;
}

/** A number as people write it: no float noise (0.1 + 0.2 is 0.3), integers without ".0". */
export function formatNumber(n) {
  if (Number.isInteger(n) && Math.abs(n) < 1e21) return String(n);
  return String(Number(n.toPrecision(12)));
}

// --- Unit converter: linear units by dimension, temperatures by formula.
const LINEAR = {
  length: { m: 1, km: 1000, cm: 0.01, mm: 0.001, mi: 1609.344, yd: 0.9144, ft: 0.3048, in: 0.0254 },
  mass: { kg: 1, g: 0.001, mg: 1e-6, lb: 0.45359237, oz: 0.028349523125, t: 1000 },
  volume: { l: 1, ml: 0.001, gal: 3.785411784, qt: 0.946352946, cup: 0.2365882365 },
  time: { s: 1, min: 60, h: 3600, day: 86400, week: 604800 },
  speed: { 'm/s': 1, 'km/h': 1 / 3.6, mph: 0.44704, kn: 1852 / 3600 },
};
const ALIASES = {
  meter: 'm', meters: 'm', metre: 'm', metres: 'm', kilometer: 'km', kilometers: 'km', kilometres: 'km',
  mile: 'mi', miles: 'mi', foot: 'ft', feet: 'ft', inch: 'in', inches: 'in', yard: 'yd', yards: 'yd',
  kilogram: 'kg', kilograms: 'kg', kilo: 'kg', kilos: 'kg', gram: 'g', grams: 'g', pound: 'lb', pounds: 'lb',
  lbs: 'lb', ounce: 'oz', ounces: 'oz', liter: 'l', liters: 'l', litre: 'l', litres: 'l', gallon: 'gal',
  gallons: 'gal', second: 's', seconds: 's', sec: 's', minute: 'min', minutes: 'min', hour: 'h', hours: 'h',
  days: 'day', weeks: 'week', kph: 'km/h', knots: 'kn', celsius: 'c', '°c': 'c', fahrenheit: 'f', '°f': 'f',
  kelvin: 'k',
};
const TEMPERATURE = {
  c: { toK: (v) => v + 273.15, fromK: (k) => k - 273.15 },
  f: { toK: (v) => ((v - 32) * 5) / 9 + 273.15, fromK: (k) => ((k - 273.15) * 9) / 5 + 32 },
  k: { toK: (v) => v, fromK: (k) => k },
};

function unitOf(name) {
  if (typeof name !== 'string') throw new ToolError('a unit must be a string');
  const u = name.trim().toLowerCase();
  return ALIASES[u] ?? u;
}

/** Converts `value` from one unit to another of the same dimension. */
export function convert(value, from, to) {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new ToolError('value must be a finite number');
  const a = unitOf(from);
  const b = unitOf(to);
  if (TEMPERATURE[a] || TEMPERATURE[b]) {
    if (!TEMPERATURE[a] || !TEMPERATURE[b]) throw new ToolError(`cannot convert ${from} to ${to}`);
    return TEMPERATURE[b].fromK(TEMPERATURE[a].toK(value));
  }
  for (const table of Object.values(LINEAR))
    if (Object.hasOwn(table, a) && Object.hasOwn(table, b)) return (value * table[a]) / table[b];
  const known = Object.hasOwn(ALIASES, a) || Object.values(LINEAR).some((t) => Object.hasOwn(t, a));
  throw new ToolError(known ? `cannot convert ${from} to ${to}` : `unknown unit "${from}"`);
}

/** The tools as the agent serves them: ai.info's tool_schemas plus run(). `now` is injected (ms). */
export function createTools({ now = () => Date.now() } = {}) {
  return {
    calculator: {
      description: 'Evaluates an arithmetic expression: + - * / % ^, parentheses, sqrt, abs, round, min, max, ln, log, sin, cos, tan, pi, e.',
      input_schema: {
        type: 'object',
        properties: { expression: { type: 'string', maxLength: MAX_EXPRESSION } },
        required: ['expression'],
      },
      run: ({ expression }) => ({ expression, result: formatNumber(evaluate(expression)) }),
    },
    clock: {
      description: 'The current date and time, in UTC or an IANA time zone.',
      input_schema: { type: 'object', properties: { timezone: { type: 'string' } } },
      run: ({ timezone = 'UTC' } = {}) => {
        const at = new Date(now());
        let local;
        try {
          local = new Intl.DateTimeFormat('en-GB', { timeZone: timezone, dateStyle: 'full', timeStyle: 'long' }).format(at);
        } catch {
          throw new ToolError(`unknown time zone "${timezone}"`);
        }
        return { iso: at.toISOString(), timezone, local };
      },
    },
    unit_converter: {
      description: 'Converts a value between units of length, mass, volume, time, speed or temperature.',
      input_schema: {
        type: 'object',
        properties: { value: { type: 'number' }, from: { type: 'string' }, to: { type: 'string' } },
        required: ['value', 'from', 'to'],
      },
      run: ({ value, from, to }) => ({ value, from, to, result: formatNumber(convert(value, from, to)) }),
    },
  };
}

/** ai.info's tool_schemas for `tools`. */
export function toolSchemas(tools) {
  return Object.fromEntries(
    Object.entries(tools).map(([name, t]) => [name, { schema_version: 1, description: t.description, input_schema: t.input_schema }]),
  );
}
