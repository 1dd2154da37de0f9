// Building the page from text nodes: user data never goes through HTML parsing.

const SVG_NS = "http://www.w3.org/2000/svg";

function build(node, attrs, children, svgMode) {
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") node.addEventListener(key.slice(2), value);
    else if (key === "class" && !svgMode) node.className = value;
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/**
 * An HTML element: `el("a", {href, class, onclick}, "text", child…)`. Strings become text nodes;
 * null, undefined and false children and attributes are left out; `on…` functions are listeners.
 */
export const el = (tag, attrs = {}, ...children) => build(document.createElement(tag), attrs, children, false);

/** An SVG element, as `el`. */
export const svg = (tag, attrs = {}, ...children) => build(document.createElementNS(SVG_NS, tag), attrs, children, true);

/** The element of a page with this id. */
export const byId = (id) => document.getElementById(id);

/** The last part of the page's path (a table id, a player's name), decoded. */
export const pathTail = () => decodeURIComponent(location.pathname.split("/").pop());
