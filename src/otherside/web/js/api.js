// Small helpers shared by every page: JSON requests, the signed-in user, the header.

export async function api(method, path, body) {
  const options = { method, headers: {}, credentials: "same-origin" };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  const response = await fetch(path, options);
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    const detail = typeof data.detail === "string" ? data.detail
      : Array.isArray(data.detail) ? data.detail.map((d) => d.msg).join("; ") : response.statusText;
    throw new Error(detail);
  }
  return data;
}

export const el = (tag, attrs = {}, ...children) => {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "class") node.className = value;
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
};

export async function currentUser() {
  return (await api("GET", "/api/me")).user;
}

export function header(user) {
  const who = document.querySelector("header.top .who");
  if (!who) return;
  who.replaceChildren();
  if (user) {
    who.append(`${user.name}${user.guest ? " (guest)" : ""} · `,
      el("a", { href: "#", style: "color:#fff", onclick: async (e) => {
        e.preventDefault(); await api("POST", "/api/signout"); location.href = "/";
      } }, "sign out"));
  }
}

export function toast(text, ms = 3500) {
  const node = el("div", { class: "toast", role: "status" }, text);
  document.body.append(node);
  setTimeout(() => node.remove(), ms);
}

const STYLED = new Set(["versus", "rectoverso"]);

export async function gameModule(page) {
  // A game's own stylesheet, when it has one, comes with its module.
  if (STYLED.has(page) && !document.querySelector(`link[data-game="${page}"]`)) {
    document.head.append(el("link", { rel: "stylesheet", href: `/static/css/games/${page}.css`, "data-game": page }));
  }
  try {
    return await import(`/static/js/games/${page}.js`);
  } catch {
    return await import("/static/js/games/generic.js");
  }
}
