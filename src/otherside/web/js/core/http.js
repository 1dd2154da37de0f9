// JSON over HTTP to the server: one function, errors as exceptions carrying the server's words
// (in the reader's language: the server chose it from the same cookie or Accept-Language).
import "/static/js/core/i18n.js";

/** An error answer of the server: its sentence, its HTTP status, its stable code and the code's
 * parameters when it has them (server/http/errors.py). */
export class ApiError extends Error {
  constructor(message, status, code = null, params = null) {
    super(message);
    this.status = status;
    this.code = code;
    this.params = params;
  }
}

/**
 * Send a JSON request to the server (same origin, with the session cookie).
 * @param {string} method "GET", "POST", …
 * @param {string} path e.g. "/api/tables/12"
 * @param {object} [body] sent as JSON when given
 * @returns {Promise<any>} the decoded answer
 * @throws {ApiError} when the server refuses (its `detail` as the message)
 */
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
      : Array.isArray(data.detail) ? data.detail.map((d) => d.msg).join("; ")
        : typeof data.detail?.message === "string" ? data.detail.message : response.statusText;
    throw new ApiError(detail, response.status, data.code ?? data.detail?.code ?? null, data.params ?? null);
  }
  return data;
}
