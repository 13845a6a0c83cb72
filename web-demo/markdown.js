// A tiny, safe Markdown renderer for agent text: it builds DOM nodes and never parses HTML.
// Every character of the input ends up in a text node (createTextNode / textContent), so tags,
// entities and scripts in an agent's reply are shown as the characters they are. Links are kept
// only for http(s): URLs and open in a new tab without an opener or referrer.
//
// Blocks: paragraphs (single newlines become <br>), # headings, - and 1. lists, > quotes,
// ``` fenced code. Inline: `code`, **bold**, *italic* / _italic_, [text](https://url).
//
// Time linear in the text (agents' replies are repainted as they stream). In INLINE, every
// variable-length part stops at the next character that could start or close its own kind of
// element: code at `, bold and italic at *, _ at _, a link's text at [ or ], its URL at ( or ) or
// a space. A failed try from one start thus never scans past the next start of its kind: when a
// link's text could run over [ (and its URL over (), a line of 65,535 [ took 3.2 s per repaint.
// The block patterns match trimmed lines or end in [^]*, so they do not backtrack either.

const INLINE = /`([^`\n]+)`|\*\*([^*\n]+)\*\*|\*([^*\s\n](?:[^*\n]*[^*\s\n])?)\*|(?<![\w])_([^_\s\n](?:[^_\n]*[^_\s\n])?)_(?![\w])|\[([^[\]\n]+)\]\(([^()\s]+)\)/g;
const MAX_DEPTH = 4;

function safeHref(href) {
  let url;
  try {
    url = new URL(href);
  } catch {
    return null;
  }
  return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
}

/** Appends `text` with inline formatting to `parent`. */
function inline(doc, parent, text, depth = 0) {
  if (depth >= MAX_DEPTH) {
    parent.append(doc.createTextNode(text));
    return;
  }
  let last = 0;
  INLINE.lastIndex = 0;
  const matches = [...text.matchAll(INLINE)];
  for (const m of matches) {
    if (m.index > last) parent.append(doc.createTextNode(text.slice(last, m.index)));
    last = m.index + m[0].length;
    const [, code, bold, em1, em2, linkText, href] = m;
    if (code !== undefined) {
      const el = doc.createElement('code');
      el.textContent = code;
      parent.append(el);
    } else if (bold !== undefined || em1 !== undefined || em2 !== undefined) {
      const el = doc.createElement(bold !== undefined ? 'strong' : 'em');
      inline(doc, el, bold ?? em1 ?? em2, depth + 1);
      parent.append(el);
    } else {
      const safe = safeHref(href);
      if (safe === null) {
        parent.append(doc.createTextNode(m[0]));
        continue;
      }
      const a = doc.createElement('a');
      a.href = safe;
      a.target = '_blank';
      a.rel = 'noopener noreferrer nofollow';
      inline(doc, a, linkText, depth + 1);
      parent.append(a);
    }
  }
  if (last < text.length) parent.append(doc.createTextNode(text.slice(last)));
}

/** Lines with single newlines become <br>-separated inline text. */
function lines(doc, parent, list) {
  list.forEach((line, i) => {
    if (i > 0) parent.append(doc.createElement('br'));
    inline(doc, parent, line);
  });
}

/** Renders `text` into a new DocumentFragment of `doc`. */
export function renderMarkdown(text, doc = document) {
  const frag = doc.createDocumentFragment();
  const src = String(text).replace(/\r\n?/g, '\n').split('\n');
  let para = [];
  let list = null; // { el, ordered }
  let quote = null;

  const flushPara = () => {
    if (para.length === 0) return;
    const p = doc.createElement('p');
    lines(doc, p, para);
    frag.append(p);
    para = [];
  };
  const closeBlocks = () => {
    flushPara();
    list = null;
    quote = null;
  };

  for (let i = 0; i < src.length; i++) {
    const line = src[i];
    let m;
    if ((m = /^```([\w+-]*)$/.exec(line.trim()))) {
      closeBlocks();
      const body = [];
      i++;
      while (i < src.length && src[i].trim() !== '```') body.push(src[i++]);
      const pre = doc.createElement('pre');
      const code = doc.createElement('code');
      if (m[1]) code.dataset.lang = m[1];
      code.textContent = body.join('\n');
      pre.append(code);
      frag.append(pre);
    } else if (line.trim() === '') {
      closeBlocks();
    } else if ((m = /^(#{1,6})\s+([^]*)$/.exec(line))) {
      closeBlocks();
      const h = doc.createElement(`h${Math.min(6, m[1].length + 2)}`); // the page owns h1, h2
      inline(doc, h, m[2]);
      frag.append(h);
    } else if ((m = /^\s*(?:([-*+])|(\d{1,9})[.)])\s+([^]*)$/.exec(line))) {
      flushPara();
      quote = null;
      const ordered = m[2] !== undefined;
      if (!list || list.ordered !== ordered) {
        list = { el: doc.createElement(ordered ? 'ol' : 'ul'), ordered };
        if (ordered && m[2] !== '1') list.el.start = Number(m[2]);
        frag.append(list.el);
      }
      const li = doc.createElement('li');
      inline(doc, li, m[3]);
      list.el.append(li);
    } else if ((m = /^>\s?([^]*)$/.exec(line))) {
      flushPara();
      list = null;
      if (!quote) {
        quote = doc.createElement('blockquote');
        frag.append(quote);
      } else quote.append(doc.createElement('br'));
      inline(doc, quote, m[1]);
    } else {
      list = null;
      quote = null;
      para.push(line);
    }
  }
  flushPara();
  return frag;
}
