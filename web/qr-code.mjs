// qr-code.mjs — a QR code of a link as an inline SVG, for a phone's camera:
// <toolnexus-chat> shows one beside a durable run's approval link so a person
// can approve from a phone. The element loads this module (and lean-qr with
// it) only when a run waits on such a link.
//
// The symbol comes from lean-qr (npm, MIT): the build copies it into dist/web
// as lean-qr.mjs with its licence (scripts/browser.sh web_deps); it is pinned
// in scripts/web-deps/package.json, not kept in web/. This module only draws
// the modules lean-qr computed, with createElementNS and setAttribute: no
// markup is parsed, and nothing but numbers reaches an attribute.

import { correction, generate } from "./lean-qr.mjs";

const NS = "http://www.w3.org/2000/svg";
const QUIET = 4; // the quiet zone ISO/IEC 18004 asks for, in modules

/**
 * qrSVG returns an <svg role="img"> showing text as a QR code: dark modules
 * on a white square (a dark page scheme does not invert it), with the quiet
 * zone, error correction M or better, and an integer number of CSS pixels per
 * module so it stays sharp: at least minPixels wide (a phone reads ~160 px on
 * a screen from a comfortable distance). Throws when text does not fit in a
 * QR code (over ~2.3 kB).
 * @param {string} text
 * @param {{label?: string, minPixels?: number, document?: Document}} [options]
 */
export function qrSVG(text, { label = "QR code", minPixels = 160, document: doc = globalThis.document } = {}) {
  const code = generate(String(text), { minCorrectionLevel: correction.M });
  const side = code.size + 2 * QUIET;
  const px = side * Math.max(2, Math.ceil(minPixels / side));
  const svg = doc.createElementNS(NS, "svg");
  set(svg, { viewBox: `0 0 ${side} ${side}`, width: px, height: px, role: "img", "aria-label": label,
    "shape-rendering": "crispEdges" });
  const paper = doc.createElementNS(NS, "rect");
  set(paper, { width: side, height: side, fill: "#ffffff" });
  const ink = doc.createElementNS(NS, "path");
  set(ink, { d: modulesPath(code), fill: "#000000" });
  svg.append(paper, ink);
  return svg;
}

// modulesPath draws every run of dark modules in a row as one rectangle of
// one path: a few hundred path commands instead of thousands of elements.
function modulesPath(code) {
  const d = [];
  for (let y = 0; y < code.size; y++) {
    for (let x = 0; x < code.size;) {
      if (!code.get(x, y)) { x++; continue; }
      const from = x;
      while (x < code.size && code.get(x, y)) x++;
      d.push(`M${from + QUIET} ${y + QUIET}h${x - from}v1h${from - x}z`);
    }
  }
  return d.join("");
}

function set(node, attrs) {
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
}
