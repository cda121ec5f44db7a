// The seeded world's images, drawn on request: a small SVG per product, variant, video thumbnail and
// country flag, showing the record's name as it is now (product and variant) on a colour
// derived from its id, at the size the URL names (64, 240, 800 or 1600 pixels square). Served under
// `/__sandbox-assets/stores/{store_id}/images/{name}-{size}.svg` (asset-urls.ts builds the URLs the
// world's records carry), outside the contract.
//
// Why not under /__simulator: those routes answer only callers on this machine (http/local-origin.ts),
// and an <img> of a front-end on another origin (a dev server on http://localhost:5173 is another site
// than http://127.0.0.1:4010; a deployed preview is another site altogether) is sent with
// `Sec-Fetch-Site: cross-site` and no Origin, which that guard refuses. The images are read-only and say
// nothing the storefront API (open to every origin) does not already say, so they get its policy instead:
// any origin, `Cross-Origin-Resource-Policy: cross-origin`. The guard stays a rule on the /__simulator
// prefix alone; nothing under /__sandbox-assets changes state.
//
// Names come from users (the back office's product names, `--data` files), so the text is escaped and
// stripped of what XML 1.0 cannot hold, the SVG has no script, link or external reference, and the
// answer carries `X-Content-Type-Options: nosniff` and a CSP that forbids everything but inline style.
import { fail } from '../http/errors.js';
import type { AssetRoute } from '../http/extension.js';
import { ASSET_PREFIX, type AssetUrls, type ImageSize } from './asset-urls.js';
import type { Sandbox } from './sandbox.js';
import type { World } from './world.js';

/** What an image shows: the record's name, its initials, and the id its colour comes from. */
export interface ImageSubject {
  title: string;
  /** Two or three characters for the smallest size (initials, an ISO code). */
  initials: string;
  /** The colour's source: an image, variant or country id. */
  key: string;
  /** Video thumbnails get a play mark. */
  video?: boolean;
}

const IMAGE_ROUTE = `${ASSET_PREFIX}/stores/{store_id}/images/{name}`;
const IMAGE_SUMMARY = "a generated SVG image of the store's world: {name}-{64|240|800|1600}.svg, as its product, variant, video and flag URLs name it (any origin may load it)";
const NAME = /^(.+)-(64|240|800|1600)\.svg$/;
const MAX_TITLE = 160;

/** The routes of the generated images (the pipeline matches them: http/control-routes.ts `assetRouter`). */
export function assetRoutes(sandbox: Sandbox): AssetRoute[] {
  return [
    {
      method: 'GET',
      path: IMAGE_ROUTE,
      summary: IMAGE_SUMMARY,
      handle: ({ params }) => {
        const m = NAME.exec(params.name);
        if (!m) {
          return fail(404, 'not_found', `No image ${params.name.slice(0, 200)}: image names end in -64.svg, -240.svg, -800.svg or -1600.svg.`, [
            { location: 'path', name: 'name', message: 'must be <name>-<64|240|800|1600>.svg' },
          ]);
        }
        // An image is served from a world that exists (a page shows the URLs its API calls answered, which
        // built the world); an id nobody used gets a cheap 404 instead of a world built for one image.
        const world = sandbox.knownWorld(params.store_id);
        if (!world) {
          return fail(404, 'not_found', `Store ${params.store_id.slice(0, 100)} has no world on this workbench yet, so no images: a store's images are served once the store is used (any storefront or back-office call builds its world); use the URLs its records carry.`, [
            { location: 'path', name: 'store_id', message: 'no world yet: no storefront or back-office call has used this store' },
          ]);
        }
        const subject = imageIndex(world).get(m[1]);
        if (!subject) {
          return fail(404, 'not_found', `No image ${m[1].slice(0, 200)} in store ${params.store_id.slice(0, 100)}: use the URLs of the world's records (url_tiny ... url_zoom, image_thumbnail_url, flag_icon_url).`, [
            { location: 'path', name: 'name', message: 'names no image of this store' },
          ]);
        }
        return { status: 200, bytes: Buffer.from(renderSvg(subject, Number(m[2]) as ImageSize)), contentType: 'image/svg+xml; charset=utf-8' };
      },
    },
  ];
}

/** `GET /__sandbox-assets/...` for GET /__simulator's list. */
export const ASSET_ROUTES: Record<string, string> = { [`GET ${IMAGE_ROUTE}`]: IMAGE_SUMMARY };

const indexes = new WeakMap<World, { version: number; byName: Map<string, ImageSubject> }>();

/** Every image the world's records point at on this sandbox, by name; rebuilt when the world changes. */
export function imageIndex(world: World): Map<string, ImageSubject> {
  const held = indexes.get(world);
  if (held?.version === world.version) return held.byName;
  const byName = new Map<string, ImageSubject>();
  const add = (assets: AssetUrls, url: unknown, subject: () => ImageSubject) => {
    if (typeof url !== 'string') return;
    const name = assets.nameOf(url);
    if (name !== undefined && !byName.has(name)) byName.set(name, subject());
  };
  const { assets } = world;
  for (const product of world.products.values()) {
    // The names as they are now (the back office renames products), not the Image record's title.
    for (const variant of product.variants) {
      const title = !variant.name || variant.name === 'Standard' ? product.name : `${product.name} ${variant.name}`;
      for (const image of variant.images ?? []) {
        const subject = () => ({ title, initials: initialsOf(title), key: image.id || variant.id });
        for (const url of [image.url_tiny, image.url_thumbnail, image.url_standard, image.url_zoom]) add(assets, url, subject);
      }
      for (const video of variant.videos ?? []) {
        add(assets, video.image_thumbnail_url, () => ({ title: video.title || title, initials: initialsOf(title), key: `${variant.id}:video`, video: true }));
      }
    }
    for (const image of product.images ?? []) {
      const subject = () => ({ title: product.name, initials: initialsOf(product.name), key: image.id || product.id });
      for (const url of [image.url_tiny, image.url_thumbnail, image.url_standard, image.url_zoom]) add(assets, url, subject);
    }
  }
  for (const country of world.countries) {
    add(assets, country.flag_icon_url, () => ({ title: country.country_name, initials: country.country_iso_code.slice(0, 3).toUpperCase(), key: country.id }));
  }
  indexes.set(world, { version: world.version, byName });
  return byName;
}

/** The SVG of an image: its colour from the key, its title wrapped in up to three lines, width and height `size`. */
export function renderSvg(subject: ImageSubject, size: ImageSize): string {
  const hue = hash(subject.key) % 360;
  const title = [...xmlText(subject.title)].slice(0, MAX_TITLE).join('') || 'Untitled';
  const initials = escapeXml([...xmlText(subject.initials)].slice(0, 3).join('') || '?');
  const label = escapeXml(title);
  // One 240-unit canvas for every size, drawn at the size the URL names.
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 240 240" role="img" aria-label="${label}">`,
    `<title>${label}</title>`,
    `<rect width="240" height="240" fill="hsl(${hue} 45% 88%)"/>`,
  ];
  // Text attributes once, on a group: the smallest size shows the initials only, the others the name too.
  parts.push('<g font-family="system-ui, -apple-system, Segoe UI, Roboto, sans-serif" text-anchor="middle">');
  if (size < 240) {
    parts.push(`<circle cx="120" cy="120" r="92" fill="hsl(${hue} 50% 42%)"/>`);
    parts.push(`<text x="120" y="120" dy="0.35em" font-size="76" font-weight="600" fill="#ffffff">${initials}</text>`);
  } else {
    parts.push(`<circle cx="120" cy="88" r="54" fill="hsl(${hue} 50% 42%)"/>`);
    if (subject.video) parts.push('<path d="M106 64 L146 88 L106 112 Z" fill="#ffffff"/>');
    else parts.push(`<text x="120" y="88" dy="0.35em" font-size="40" font-weight="600" fill="#ffffff">${initials}</text>`);
    wrap(title, 22, 3).forEach((line, i) => parts.push(`<text x="120" y="${170 + i * 20}" font-size="16" fill="#1f2933">${escapeXml(line)}</text>`));
    parts.push(`<text x="120" y="232" font-size="10" fill="#52606d">sandbox image ${size}×${size}</text>`);
  }
  parts.push('</g>');
  parts.push('</svg>');
  return parts.join('');
}

/** Words in lines of at most `width` characters (a longer word is cut), at most `lines` lines, the last one ending in … when cut. */
export function wrap(text: string, width: number, lines: number): string[] {
  const out: string[] = [];
  let line = '';
  const words = text.split(/\s+/).filter(Boolean).flatMap((w) => (w.length <= width ? [w] : w.match(new RegExp(`.{1,${width}}`, 'gu')) ?? [w]));
  let cut = false;
  for (const word of words) {
    const next = line ? `${line} ${word}` : word;
    if ([...next].length <= width) {
      line = next;
      continue;
    }
    out.push(line);
    line = word;
    if (out.length === lines) {
      cut = true;
      break;
    }
  }
  if (!cut && line) out.push(line);
  if (out.length > lines || cut) {
    out.length = lines;
    const last = [...out[lines - 1]];
    out[lines - 1] = `${last.slice(0, width - 1).join('')}…`;
  }
  return out;
}

function initialsOf(title: string): string {
  const words = title.split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  if (words.length === 0) return '?';
  return (words.length === 1 ? [...words[0]].slice(0, 2).join('') : words.slice(0, 2).map((w) => [...w][0]).join('')).toUpperCase();
}

/** Text XML 1.0 can hold: control characters, lone surrogates and U+FFFE/U+FFFF removed. */
export function xmlText(s: string): string {
  // eslint-disable-next-line no-control-regex
  return s.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '').replace(/\s+/g, ' ').trim();
}

export function escapeXml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : c === '"' ? '&quot;' : '&#39;'));
}

/** FNV-1a over the UTF-16 code units: a stable number per id. */
function hash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
