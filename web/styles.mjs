// styles.mjs — static stylesheets for the dialog and <toolnexus-chat>,
// adopted as constructable stylesheets. No DOM is touched on import.

// Constructable stylesheets (new CSSStyleSheet + replaceSync, adopted through
// adoptedStyleSheets) are not governed by CSP's style-src, so a page whose
// policy refuses inline <style> still gets these styles. One sheet per
// document and CSS text is shared by every root that adopts it.
const SHEETS = new WeakMap(); // Document -> Map<css text, CSSStyleSheet>
// Marks our sheets with their CSS text. Symbol.for is shared by every copy of
// this module in a realm (one loaded twice under two URLs), so a root never
// adopts the same CSS twice.
const MARK = Symbol.for("toolnexus.stylesheet");

/**
 * adoptStyles gives root (a Document or a ShadowRoot) the static stylesheet
 * css, once however often it is called: the sheet is appended to the root's
 * adoptedStyleSheets, so sheets another script adopted stay. Where
 * constructable stylesheets are missing it falls back to one <style id=name>
 * element (which a style-src without 'unsafe-inline' refuses). Internal:
 * used by this dialog and <toolnexus-chat> (chat-element.mjs).
 * @param {Document|ShadowRoot} root
 * @param {string} name the fallback element's id
 * @param {string} css static text only, never data from a request
 */
export function adoptStyles(root, name, css) {
  const doc = root.nodeType === 9 ? root : root.ownerDocument;
  const sheet = "adoptedStyleSheets" in root ? constructed(doc, css) : null;
  if (sheet) {
    const adopted = root.adoptedStyleSheets;
    if (!adopted.some((s) => s[MARK] === css)) root.adoptedStyleSheets = [...adopted, sheet];
    return;
  }
  if (root.getElementById(name)) return;
  const style = doc.createElement("style");
  style.id = name;
  style.textContent = css;
  if (root === doc) (doc.head ?? doc.documentElement).append(style);
  else root.prepend(style);
}

// constructed returns doc's sheet holding css, made on first use, or null
// where the browser cannot construct one. A sheet is made with doc's own
// CSSStyleSheet: a root may only adopt sheets of its own document.
function constructed(doc, css) {
  let byText = SHEETS.get(doc);
  let sheet = byText?.get(css);
  if (sheet) return sheet;
  const Sheet = doc.defaultView?.CSSStyleSheet;
  if (typeof Sheet !== "function") return null;
  try {
    sheet = new Sheet();
    sheet.replaceSync(css);
  } catch {
    return null; // CSSStyleSheet without a constructor (older browsers)
  }
  sheet[MARK] = css;
  if (!byText) SHEETS.set(doc, byText = new Map());
  byText.set(css, sheet);
  return sheet;
}
