// chart/src/views/appearance.ts
var MAX_CORNER_RADIUS = 24;
var MAX_FONT_FAMILY_LENGTH = 200;
var FONT_FAMILY = /^[\p{L}\p{N} ,'"_-]+$/u;
var COLOUR = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;
var KEYS = /* @__PURE__ */ new Set(["fontFamily", "accentColor", "cornerRadius"]);
function readAppearance(value) {
  if (value === void 0) return { ok: true, appearance: {} };
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return { ok: false, message: "appearance: give an object with fontFamily, accentColor and/or cornerRadius." };
  const record = value;
  const unknown = Object.keys(record).find((key) => !KEYS.has(key));
  if (unknown !== void 0)
    return {
      ok: false,
      message: `appearance.${unknown}: not an appearance option; use fontFamily, accentColor or cornerRadius.`
    };
  const appearance = {};
  const { fontFamily, accentColor, cornerRadius } = record;
  if (fontFamily !== void 0) {
    if (typeof fontFamily !== "string" || fontFamily.trim() === "" || fontFamily.length > MAX_FONT_FAMILY_LENGTH || !FONT_FAMILY.test(fontFamily))
      return {
        ok: false,
        message: `appearance.fontFamily: give a font-family list of at most ${MAX_FONT_FAMILY_LENGTH} characters, names separated by commas (letters, digits, spaces, hyphens and quotes only).`
      };
    appearance.fontFamily = fontFamily.trim();
  }
  if (accentColor !== void 0) {
    if (typeof accentColor !== "string" || !COLOUR.test(accentColor))
      return { ok: false, message: 'appearance.accentColor: give a colour as #rgb or #rrggbb, e.g. "#0a6e5c".' };
    appearance.accentColor = accentColor;
  }
  if (cornerRadius !== void 0) {
    if (typeof cornerRadius !== "number" || !Number.isFinite(cornerRadius) || cornerRadius < 0 || cornerRadius > MAX_CORNER_RADIUS)
      return {
        ok: false,
        message: `appearance.cornerRadius: give a number of CSS pixels from 0 to ${MAX_CORNER_RADIUS}.`
      };
    appearance.cornerRadius = cornerRadius;
  }
  return { ok: true, appearance };
}

// sdk/household-chart.ts
/*!
 * Hearth household chart — partner SDK (protocol v1).
 *
 * Mounts the pinned, embedded household chart into a container on your page and speaks the
 * chart's postMessage protocol for you. One self-contained ES module with no dependencies: load it
 * from the embed origin, pinned to the same version as the chart it mounts.
 *
 * Usage (a page on an origin registered for your organization with `hearth origins add`):
 *
 *   import { mountHouseholdChart, HouseholdChartError } from 'https://embed.hearth.example/chart/v0.2.0/sdk.js'
 *
 *   const chart = mountHouseholdChart({
 *     container: document.getElementById('household-chart')!,
 *     embedOrigin: 'https://embed.hearth.example',
 *     title: 'Household chart of the Chen family',
 *     // Your own server mints the token (POST /api/v1/embed/chart-sessions with your API key,
 *     // which never reaches the browser) and answers { token, expiresAt }.
 *     fetchToken: async () => {
 *       const response = await fetch('/chart-token', { method: 'POST' })
 *       if (!response.ok) throw new Error(`token endpoint answered ${response.status}`)
 *       return response.json()
 *     },
 *     payload: { household: { name: 'Chen Family' }, people: [{ id: 'robert', name: 'Robert Chen', role: 'primaryClient' }] },
 *     theme: 'system',
 *     appearance: { fontFamily: 'Inter, system-ui, sans-serif', accentColor: '#0a6e5c', cornerRadius: 8 },
 *     onEvent: (event) => {
 *       if (event.type === 'select') showDetails(event.id, event.kind)
 *       if (event.type === 'viewchange') highlightTab(event.view)
 *       if (event.type === 'error') console.warn(`chart: ${event.code}: ${event.message}`)
 *     },
 *   })
 *   try {
 *     await chart.ready // the chart has rendered once
 *   } catch (error) {
 *     if (error instanceof HouseholdChartError) console.error(error.code, error.message)
 *   }
 *   chart.update(nextPayload) // re-renders, with the token the SDK holds (or a new one)
 *   chart.setTheme('dark')
 *   chart.setView('structure') // 'family' | 'structure' | 'estate'
 *   chart.focus('robert') // selects a person or an entity and brings it into view
 *   chart.print() // the chart's print layout, through the browser's print dialog
 *   chart.setAppearance({ accentColor: '#7a3e9d' })
 *   chart.destroy() // removes the iframe, its listener and its timers
 *
 * What it does:
 * - Creates the iframe per the mounting rules: sandbox exactly "allow-scripts allow-same-origin",
 *   src = `${embedOrigin}/chart/v${version}/index.html` (a pinned version; never "latest"),
 *   referrerpolicy "origin", your title, width 100 %, no border, loading eager, and
 *   allow="fullscreen" (a permissions policy, not a sandbox flag: Present mode fills the screen).
 *   Styles are set through the CSSOM (iframe.style), so host pages with a strict style-src still work.
 * - Accepts a message only when its origin is the embed origin and its source is that iframe's
 *   window; everything else is ignored.
 * - Calls fetchToken as soon as it mounts (in parallel with the iframe loading); on the chart's
 *   `ready` posts `render {type: 'render', v: 1, token, payload, appearance?, handles}` to the
 *   embed origin, with `handles: ['download', 'print']`: this page saves and prints for the chart.
 * - Saves and prints for the chart. The mounting rules sandbox the iframe with exactly
 *   "allow-scripts allow-same-origin" (no allow-downloads, no allow-modals), so the chart can
 *   neither start a download nor open a print dialog itself. It makes the file (a PNG or an SVG) or
 *   the print document in the browser and posts it to this page. Nothing goes to any server.
 *   A file is saved through an object URL and a download link, and only as image/png or
 *   image/svg+xml (anything else is ignored), in a new Blob of that type, under its name with path
 *   separators, control and bidirectional characters replaced by "_", leading dots dropped, and the
 *   type's extension (.png, .svg) added when the name lacks it.
 *   A print document is printed from a hidden frame the SDK adds to this page, sandboxed
 *   "allow-same-origin allow-modals" (no allow-scripts: nothing in it can run), and removed after
 *   printing. Its markup is parsed inertly and cleaned first, as defence in depth (the chart sends
 *   nothing of this): script, iframe, frame, frameset, object, embed, link, meta, base and style
 *   elements and SVG animations (animate, set, animateMotion, animateTransform) are dropped; so are
 *   on* and style attributes, URL attributes (src, srcset, href, xlink:href, data, poster,
 *   background, action, formaction) other than #fragments and data:, and any attribute whose
 *   value holds a url() other than url(#…) (SVG's fill, filter, mask, clip-path, marker-*). Its CSS
 *   is parsed into a constructed stylesheet and cleaned before it applies: @import and @font-face
 *   rules go, as does every declaration (at any depth of @media, @supports and other grouping
 *   rules, custom properties included) whose value holds a url() other than url(#…) or image-set(),
 *   image() or src(), and any other rule that names one (@property's initial-value). The sheet is adopted (a strict style-src allows that, unlike a <style>
 *   element); a browser that cannot adopt it gets its cleaned rules in a <style> element, and one
 *   that cannot construct it prints without the chart's CSS.
 * - Sizes the iframe's height from the chart's `rendered` and `resize` messages.
 * - Fetches a new token 60 s before the held one's expiresAt (halfway through a token shorter
 *   than two minutes) and keeps it, quietly: a refresh posts no render, so the chart keeps the
 *   user's pan, zoom and focus, and no render is metered for it. The chart checks a token only
 *   when it renders, so the held token is what the next render uses: update(payload), or
 *   setTheme before the first render. A render never uses a held token with less than 15 s left:
 *   it fetches a new one first.
 * - Stops refreshing on an idle page: after 3 refreshes in a row with no render in between, the
 *   last token is kept until it expires and no further one is fetched (every fetch is a mint).
 *   The next render fetches a token first if the held one has expired or is about to, and
 *   refreshing resumes from there. (A setTheme, setView, focus, print or setAppearance after the
 *   first render needs no token and does not count as a render.)
 * - setView before the first render is sent once the chart has rendered; focus and print need a
 *   drawn chart (await `ready`) and do nothing before it.
 * - When the chart answers `token_expired` (a token that aged, or a skewed clock) it fetches a
 *   new token and renders again — once: if the chart finds the new token expired too, that is
 *   reported through onEvent (no retry loop).
 * - A second mount into the same container destroys the first.
 *
 * Errors, always as onEvent({type: 'error', code, message, path?}):
 * - from the chart: token_invalid, token_expired (only when the retry did not help),
 *   origin_mismatch, version_unsupported, payload_invalid (with the JSON Pointer in `path`),
 *   appearance_invalid (the mount's `appearance` breaks a rule; setAppearance reports one that
 *   does without sending it, and the chart keeps the appearance it has);
 * - from the SDK: ready_timeout (no `ready` within readyTimeoutMs, default 15 s: see the message
 *   for the likely causes), token_fetch_failed (fetchToken threw or returned no usable token).
 * `ready` resolves when the chart has rendered for the first time, and rejects with a
 * HouseholdChartError for the first failure before that (ready_timeout, token_fetch_failed, or a
 * chart error), or with code `destroyed` when the chart is destroyed first. It never rejects
 * unobserved: ignoring it is fine when you use onEvent. Later failures (a refresh that could not
 * fetch a token, an invalid payload given to update) come through onEvent only.
 */
var SDK_CHART_VERSION = "0.2.0";
var PROTOCOL_VERSION = 1;
var HouseholdChartError = class extends Error {
  code;
  /** For payload_invalid: the JSON Pointer of the first problem in the payload. */
  path;
  constructor(code, message, path) {
    super(message);
    this.name = "HouseholdChartError";
    this.code = code;
    if (path !== void 0) this.path = path;
  }
};
var SANDBOX = "allow-scripts allow-same-origin";
var ALLOW = "fullscreen";
var HANDLES = ["download", "print"];
var PRINT_SANDBOX = "allow-same-origin allow-modals";
var PRINT_DROPPED_ELEMENTS = "script, iframe, frame, frameset, object, embed, link, meta, base, style, animate, set, animateMotion, animateTransform";
var PRINT_URL_ATTRIBUTES = /* @__PURE__ */ new Set(["src", "srcset", "href", "xlink:href", "data", "poster", "background", "action", "formaction"]);
var IN_MEMORY_URL = /^\s*(#|data:)/i;
var CSS_ESCAPE = /\\(?:([0-9a-f]{1,6})[ \t\n\r\f]?|([^\n\r\f]))/gi;
var REMOTE_CSS_URL = /url\((?!\s*['"]?\s*#)/;
var CSS_STRING_URL_FUNCTION = /(?:^|[^a-z0-9_-])(?:-webkit-image-set|image-set|image|src)\(/;
var SAVED_FILE_TYPES = /* @__PURE__ */ new Map([
  ["image/png", ".png"],
  ["image/svg+xml", ".svg"]
]);
var UNSAFE_FILE_NAME = /[<>:"/\\|?*\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]+/gu;
var LEADING_DOTS = /^[\s.]+/u;
var REVOKE_AFTER_MS = 6e4;
var DEFAULT_READY_TIMEOUT_MS = 15e3;
var REFRESH_LEAD_MS = 6e4;
var MIN_REFRESH_DELAY_MS = 5e3;
var MIN_TOKEN_VALIDITY_MS = 15e3;
var MAX_IDLE_REFRESHES = 3;
var MAX_HEIGHT = 1e5;
var MAX_TIMER_DELAY_MS = 2147483647;
var VERSION = /^\d+\.\d+\.\d+$/;
var CHART_ERROR_CODES = /* @__PURE__ */ new Set(["token_invalid", "token_expired", "origin_mismatch", "version_unsupported", "payload_invalid", "appearance_invalid"]);
var THEMES = /* @__PURE__ */ new Set(["light", "dark", "system"]);
var VIEWS = /* @__PURE__ */ new Set(["family", "structure", "estate"]);
var mounted = /* @__PURE__ */ new WeakMap();
function mountHouseholdChart(options) {
  const { container, title, fetchToken, onEvent } = options;
  const embedOrigin = checkEmbedOrigin(options.embedOrigin);
  const version = checkVersion(options.version ?? SDK_CHART_VERSION);
  if (!isElementLike(container)) throw new TypeError("mountHouseholdChart: container must be an HTMLElement");
  if (typeof title !== "string" || title.trim() === "") throw new TypeError("mountHouseholdChart: title is required (the iframe's accessible name)");
  if (typeof fetchToken !== "function") throw new TypeError("mountHouseholdChart: fetchToken must be a function returning a Promise of { token, expiresAt }");
  if (options.theme !== void 0 && !THEMES.has(options.theme)) throw new TypeError(`mountHouseholdChart: theme must be light, dark or system, got ${JSON.stringify(options.theme)}`);
  const readyTimeoutMs = options.readyTimeoutMs ?? DEFAULT_READY_TIMEOUT_MS;
  if (!Number.isFinite(readyTimeoutMs) || readyTimeoutMs <= 0) throw new TypeError("mountHouseholdChart: readyTimeoutMs must be a positive number of milliseconds");
  mounted.get(container)?.destroy();
  let payload = options.payload;
  let theme = options.theme;
  let appearance = options.appearance;
  let openingView;
  let printFrame;
  let destroyed = false;
  let chartReady = false;
  let chartRendered = false;
  let held;
  let expiredRetryAvailable = true;
  let tokenRequest;
  let renderSeq = 0;
  let refreshTimer;
  let idleRefreshes = 0;
  let settleReady;
  const ready = new Promise((resolve, reject) => {
    settleReady = { resolve, reject };
  });
  ready.catch(() => void 0);
  const iframe = document.createElement("iframe");
  iframe.setAttribute("sandbox", SANDBOX);
  iframe.referrerPolicy = "origin";
  iframe.allow = ALLOW;
  iframe.title = title;
  iframe.loading = "eager";
  iframe.style.width = "100%";
  iframe.style.border = "0";
  iframe.style.display = "block";
  iframe.src = `${embedOrigin}/chart/v${version}/index.html`;
  const emit = (event) => {
    if (!onEvent || destroyed) return;
    try {
      onEvent(event);
    } catch (error) {
      setTimeout(() => {
        throw error;
      });
    }
  };
  const fail = (error) => {
    emit({ type: "error", code: error.code, message: error.message, ...error.path !== void 0 ? { path: error.path } : {} });
    settleReady?.reject(error);
    settleReady = void 0;
  };
  const post = (message) => {
    iframe.contentWindow?.postMessage(message, embedOrigin);
  };
  const clearRefresh = () => {
    if (refreshTimer !== void 0) clearTimeout(refreshTimer);
    refreshTimer = void 0;
  };
  const scheduleRefresh = (token) => {
    clearRefresh();
    if (idleRefreshes >= MAX_IDLE_REFRESHES) return;
    const remaining = token.expiresAtMs - Date.now();
    if (remaining <= 0) return;
    const wanted = Math.max(remaining > 2 * REFRESH_LEAD_MS ? remaining - REFRESH_LEAD_MS : remaining / 2, MIN_REFRESH_DELAY_MS);
    const delay = Math.min(wanted, MAX_TIMER_DELAY_MS);
    refreshTimer = setTimeout(() => {
      refreshTimer = void 0;
      idleRefreshes++;
      void getToken(true);
    }, delay);
  };
  const noteRender = () => {
    idleRefreshes = 0;
    if (refreshTimer === void 0 && tokenRequest === void 0 && held) scheduleRefresh(held);
  };
  const getToken = (fresh) => {
    if (tokenRequest) return tokenRequest;
    if (!fresh && held && held.expiresAtMs - Date.now() > MIN_TOKEN_VALIDITY_MS) return Promise.resolve(held);
    const request = Promise.resolve().then(() => fetchToken()).then(
      (answer) => {
        const token = checkToken(answer);
        if (!destroyed) {
          held = token;
          scheduleRefresh(token);
        }
        return token;
      },
      (error) => {
        throw tokenFetchError(error);
      }
    ).catch((error) => {
      if (!destroyed) fail(error instanceof HouseholdChartError ? error : tokenFetchError(error));
      return void 0;
    }).finally(() => {
      if (tokenRequest === request) tokenRequest = void 0;
    });
    tokenRequest = request;
    return request;
  };
  const renderedPayload = () => theme === void 0 ? payload : { ...payload, options: { ...payload.options, theme } };
  const render = (freshToken = false) => {
    if (!chartReady || destroyed) return;
    noteRender();
    const seq = ++renderSeq;
    void getToken(freshToken).then((token) => {
      if (!token || destroyed || !chartReady || seq !== renderSeq) return;
      post({
        type: "render",
        v: PROTOCOL_VERSION,
        token: token.token,
        payload: renderedPayload(),
        handles: HANDLES,
        ...appearance === void 0 ? {} : { appearance }
      });
    });
  };
  const onMessage = (event) => {
    if (destroyed || event.origin !== embedOrigin || event.source === null || event.source !== iframe.contentWindow) return;
    const data = event.data;
    if (typeof data !== "object" || data === null) return;
    const message = data;
    switch (message.type) {
      case "ready":
        clearReadyTimer();
        chartReady = true;
        chartRendered = false;
        render();
        return;
      case "rendered":
      case "resize": {
        const height = message.height;
        if (typeof height !== "number" || !Number.isFinite(height) || height < 0) return;
        iframe.style.height = `${Math.ceil(Math.min(height, MAX_HEIGHT))}px`;
        if (message.type === "rendered") {
          chartRendered = true;
          expiredRetryAvailable = true;
          if (openingView !== void 0) post({ type: "setView", v: PROTOCOL_VERSION, view: openingView });
          openingView = void 0;
          emit({ type: "rendered", height });
          settleReady?.resolve();
          settleReady = void 0;
        } else {
          emit({ type: "resize", height });
        }
        return;
      }
      case "select":
        if (typeof message.id === "string" && (message.kind === "person" || message.kind === "entity")) emit({ type: "select", id: message.id, kind: message.kind });
        return;
      case "viewchange":
        if (typeof message.view === "string" && VIEWS.has(message.view)) emit({ type: "viewchange", view: message.view });
        return;
      case "download": {
        const mediaType = message.mediaType;
        const extension = typeof mediaType === "string" ? SAVED_FILE_TYPES.get(mediaType) : void 0;
        if (extension !== void 0 && typeof message.fileName === "string" && message.data instanceof Blob)
          saveFile(savedFileName(message.fileName, extension), new Blob([message.data], { type: mediaType }));
        return;
      }
      case "printdocument":
        if (typeof message.title === "string" && typeof message.html === "string" && typeof message.css === "string") {
          printFrame?.remove();
          printFrame = printDocument(message.title, message.html, message.css);
        }
        return;
      case "error": {
        const code = message.code;
        if (typeof code !== "string" || !CHART_ERROR_CODES.has(code)) return;
        if (code === "token_expired") {
          if (tokenRequest !== void 0) {
            render();
            return;
          }
          if (expiredRetryAvailable) {
            expiredRetryAvailable = false;
            render(true);
            return;
          }
        }
        const text = typeof message.message === "string" ? message.message : `the chart reported ${code}`;
        fail(new HouseholdChartError(code, text, typeof message.path === "string" ? message.path : void 0));
        return;
      }
      default:
        return;
    }
  };
  let readyTimer = setTimeout(() => {
    readyTimer = void 0;
    fail(readyTimeoutError(embedOrigin, version, readyTimeoutMs));
  }, readyTimeoutMs);
  const clearReadyTimer = () => {
    if (readyTimer !== void 0) clearTimeout(readyTimer);
    readyTimer = void 0;
  };
  window.addEventListener("message", onMessage);
  container.appendChild(iframe);
  void getToken(false);
  const handle = {
    iframe,
    ready,
    update(next) {
      if (destroyed) return;
      payload = next;
      render();
    },
    setTheme(next) {
      if (destroyed) return;
      if (!THEMES.has(next)) throw new TypeError(`setTheme: theme must be light, dark or system, got ${JSON.stringify(next)}`);
      theme = next;
      if (chartRendered) post({ type: "theme", v: PROTOCOL_VERSION, theme: next });
      else render();
    },
    setView(view) {
      if (destroyed) return;
      if (!VIEWS.has(view)) throw new TypeError(`setView: view must be family, structure or estate, got ${JSON.stringify(view)}`);
      if (chartRendered) post({ type: "setView", v: PROTOCOL_VERSION, view });
      else openingView = view;
    },
    focus(id) {
      if (destroyed) return;
      if (typeof id !== "string") throw new TypeError(`focus: id must be the string id of a person or an entity, got ${String(id)}`);
      if (chartRendered) post({ type: "focus", v: PROTOCOL_VERSION, id });
    },
    print() {
      if (!destroyed && chartRendered) post({ type: "print", v: PROTOCOL_VERSION });
    },
    setAppearance(next) {
      if (destroyed) return;
      const reading = readAppearance(next);
      if (!reading.ok) {
        emit({ type: "error", code: "appearance_invalid", message: reading.message });
        return;
      }
      appearance = reading.appearance;
      if (chartRendered) post({ type: "appearance", v: PROTOCOL_VERSION, appearance: reading.appearance });
      else render();
    },
    destroy() {
      if (destroyed) return;
      destroyed = true;
      window.removeEventListener("message", onMessage);
      clearReadyTimer();
      clearRefresh();
      iframe.remove();
      printFrame?.remove();
      if (mounted.get(container) === handle) mounted.delete(container);
      settleReady?.reject(new HouseholdChartError("destroyed", "the chart was destroyed before it rendered"));
      settleReady = void 0;
    }
  };
  mounted.set(container, handle);
  return handle;
}
function saveFile(fileName, data) {
  const url = URL.createObjectURL(data);
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  link.rel = "noopener";
  link.hidden = true;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), REVOKE_AFTER_MS);
}
function printDocument(title, html, css) {
  const frame = document.createElement("iframe");
  frame.setAttribute("sandbox", PRINT_SANDBOX);
  frame.setAttribute("aria-hidden", "true");
  frame.tabIndex = -1;
  frame.title = title;
  frame.style.position = "fixed";
  frame.style.width = "0";
  frame.style.height = "0";
  frame.style.border = "0";
  document.body.appendChild(frame);
  const view = frame.contentWindow;
  const target = frame.contentDocument;
  if (!view || !target) {
    frame.remove();
    return void 0;
  }
  const parsed = new DOMParser().parseFromString(html, "text/html");
  for (const element of parsed.querySelectorAll(PRINT_DROPPED_ELEMENTS)) element.remove();
  for (const element of parsed.querySelectorAll("*")) {
    for (const name of element.getAttributeNames()) {
      const lower = name.toLowerCase();
      const value = element.getAttribute(name) ?? "";
      const fetches = PRINT_URL_ATTRIBUTES.has(lower) && !IN_MEMORY_URL.test(value);
      if (lower.startsWith("on") || lower === "style" || fetches || REMOTE_CSS_URL.test(decodedCss(value))) element.removeAttribute(name);
    }
  }
  target.title = title;
  target.body.replaceChildren(...Array.from(parsed.body.childNodes, (node) => target.importNode(node, true)));
  applyPrintStyles(view, target, css);
  view.addEventListener("afterprint", () => frame.remove(), { once: true });
  view.print();
  return frame;
}
function applyPrintStyles(view, target, css) {
  if (typeof view.CSSStyleSheet !== "function" || typeof view.CSSStyleSheet.prototype.replaceSync !== "function") return;
  const sheet = new view.CSSStyleSheet();
  sheet.replaceSync(css);
  cleanRules(view, sheet);
  const adoptable = target;
  if (adoptable.adoptedStyleSheets !== void 0) {
    target.adoptedStyleSheets = [sheet];
    return;
  }
  const style = target.createElement("style");
  style.textContent = Array.from(sheet.cssRules, (rule) => rule.cssText).join("\n");
  target.head.appendChild(style);
}
function cleanRules(view, parent) {
  const rules = parent.cssRules;
  for (let index = rules.length - 1; index >= 0; index--) {
    const rule = rules[index];
    const holdsRules = rule instanceof view.CSSGroupingRule || rule instanceof view.CSSKeyframesRule;
    const declarations = "style" in rule && rule.style instanceof view.CSSStyleDeclaration ? rule.style : void 0;
    if (declarations) cleanDeclarations(declarations);
    if (holdsRules) cleanRules(view, rule);
    const namesUrl = !holdsRules && declarations === void 0 && !(rule instanceof view.CSSNamespaceRule) && loadsInCss(rule.cssText);
    const dropped = rule instanceof view.CSSImportRule || rule instanceof view.CSSFontFaceRule || namesUrl;
    if (dropped && !(parent instanceof view.CSSKeyframesRule)) parent.deleteRule(index);
  }
}
function cleanDeclarations(style) {
  for (let index = style.length - 1; index >= 0; index--) {
    const name = style.item(index);
    if (loadsInCss(style.getPropertyValue(name))) style.removeProperty(name);
  }
}
function loadsInCss(text) {
  const decoded = decodedCss(text);
  return REMOTE_CSS_URL.test(decoded) || CSS_STRING_URL_FUNCTION.test(decoded);
}
function decodedCss(text) {
  return text.replace(CSS_ESCAPE, (_escape, hex, character) => {
    if (hex === void 0) return character ?? "";
    const codePoint = Number.parseInt(hex, 16);
    return codePoint > 0 && codePoint <= 1114111 ? String.fromCodePoint(codePoint) : "\uFFFD";
  }).toLowerCase();
}
function savedFileName(fileName, extension) {
  const safe = fileName.replace(UNSAFE_FILE_NAME, "_").replace(LEADING_DOTS, "");
  return safe.toLowerCase().endsWith(extension) ? safe : `${safe || "chart"}${extension}`;
}
function isElementLike(value) {
  return typeof value === "object" && value !== null && typeof value.appendChild === "function";
}
function checkEmbedOrigin(input) {
  const rule = "embedOrigin must be a bare origin such as https://embed.hearth.example (scheme, host and port; no path or trailing slash)";
  if (typeof input !== "string") throw new TypeError(`mountHouseholdChart: ${rule}`);
  let url;
  try {
    url = new URL(input);
  } catch {
    throw new TypeError(`mountHouseholdChart: ${rule}, got "${input}"`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:" || url.origin !== input) {
    throw new TypeError(`mountHouseholdChart: ${rule}, got "${input}"${url.origin !== "null" && url.origin !== input ? ` (did you mean ${url.origin}?)` : ""}`);
  }
  return url.origin;
}
function checkVersion(input) {
  if (input === "latest") throw new TypeError('mountHouseholdChart: version "latest" is not served: pin a released version such as 0.1.0');
  if (typeof input !== "string" || !VERSION.test(input)) throw new TypeError(`mountHouseholdChart: version must be a released version x.y.z, got ${JSON.stringify(input)}`);
  return input;
}
function checkToken(answer) {
  if (typeof answer !== "object" || answer === null) throw new TypeError("fetchToken must resolve to { token, expiresAt }");
  const { token, expiresAt } = answer;
  if (typeof token !== "string" || token === "") throw new TypeError("fetchToken resolved without a token");
  const expiresAtMs = typeof expiresAt === "string" ? Date.parse(expiresAt) : Number.NaN;
  if (Number.isNaN(expiresAtMs)) throw new TypeError(`fetchToken resolved with an expiresAt that is not a date: ${JSON.stringify(expiresAt)}`);
  return { token, expiresAtMs };
}
function tokenFetchError(cause) {
  const why = cause instanceof Error ? cause.message : String(cause);
  return new HouseholdChartError("token_fetch_failed", `fetchToken failed: ${why}. It should call your server, which mints a token with POST /api/v1/embed/chart-sessions and answers { token, expiresAt }.`);
}
function readyTimeoutError(embedOrigin, version, timeoutMs) {
  return new HouseholdChartError(
    "ready_timeout",
    `The household chart (${embedOrigin}/chart/v${version}/index.html) did not say ready within ${timeoutMs} ms. Likely causes: (1) this page's origin (${window.location.origin}) is not registered for your organization, so the chart refuses to be framed \u2014 register it with \`hearth origins add\`; (2) this page's Content-Security-Policy blocks the embed origin \u2014 add ${embedOrigin} to frame-src (or child-src); (3) the embed origin could not identify this page's origin because the frame's Referer was stripped (e.g. by a browser extension or a proxy), so the chart refuses to be framed; (4) a wrong embedOrigin or version \u2014 the page above must load in a browser tab; (5) a slow network \u2014 raise readyTimeoutMs.`
  );
}
export {
  HouseholdChartError,
  PROTOCOL_VERSION,
  SDK_CHART_VERSION,
  mountHouseholdChart
};
