// A tiny Markdown renderer for the rules pages: headings, paragraphs, lists, **bold**, `code`
// and pipe tables — built from DOM nodes and text nodes only, so no text can become HTML.
import { el } from "/static/js/core/dom.js";

function inline(text) {
  const out = [];
  const pattern = /(\*\*[^*]+\*\*|`[^`]+`)/g;
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    if (match.index > last) out.push(text.slice(last, match.index));
    const token = match[0];
    out.push(token.startsWith("**") ? el("strong", {}, token.slice(2, -2)) : el("code", {}, token.slice(1, -1)));
    last = match.index + token.length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

const cells = (line) => line.trim().replace(/^\||\|$/g, "").split("|").map((c) => c.trim());

export function renderMarkdown(text) {
  const lines = text.replace(/\r/g, "").split("\n");
  const blocks = [];
  let i = 0;
  // Letters of any language stay in a heading's anchor ("#straße-werten-v10-v11").
  const slug = (words) => words.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "-").replace(/^-|-$/g, "");
  while (i < lines.length) {
    const line = lines[i];
    if (!line.trim()) { i += 1; continue; }
    const heading = /^(#{1,3})\s+(.*)$/.exec(line);
    if (heading) {
      blocks.push(el(`h${heading[1].length}`, { id: slug(heading[2]) }, inline(heading[2])));
      i += 1;
    } else if (/^\s*[-*]\s+/.test(line) || /^\s*\d+\.\s+/.test(line)) {
      const ordered = /^\s*\d+\.\s+/.test(line);
      const items = [];
      while (i < lines.length && lines[i].trim() && (/^\s*[-*]\s+/.test(lines[i]) || /^\s*\d+\.\s+/.test(lines[i]) || /^\s{2,}\S/.test(lines[i]))) {
        const start = /^\s*([-*]|\d+\.)\s+(.*)$/.exec(lines[i]);
        if (start && !/^\s{2,}/.test(lines[i])) items.push(start[2]);
        else items[items.length - 1] += ` ${lines[i].trim()}`;
        i += 1;
      }
      blocks.push(el(ordered ? "ol" : "ul", {}, items.map((item) => el("li", {}, inline(item)))));
    } else if (line.trim().startsWith("|")) {
      const rows = [];
      while (i < lines.length && lines[i].trim().startsWith("|")) { rows.push(lines[i]); i += 1; }
      const body = rows.filter((r) => !/^\s*\|?\s*:?-{2,}/.test(r));
      const [head, ...rest] = body;
      blocks.push(el("table", { class: "list rules-table" },
        el("thead", {}, el("tr", {}, cells(head).map((c) => el("th", {}, inline(c))))),
        // A row of the rule references ("| R5 | support |") is the anchor of /rules/<game>#R5.
        el("tbody", {}, rest.map((r) => el("tr", { id: /^[A-Z]\d+$/.test(cells(r)[0]) ? cells(r)[0] : null },
          cells(r).map((c) => el("td", {}, inline(c))))))));
    } else {
      const para = [];
      while (i < lines.length && lines[i].trim() && !/^(#{1,3}\s|\s*[-*]\s+|\s*\d+\.\s+|\s*\|)/.test(lines[i])) {
        para.push(lines[i].trim());
        i += 1;
      }
      blocks.push(el("p", {}, inline(para.join(" "))));
    }
  }
  return blocks;
}
