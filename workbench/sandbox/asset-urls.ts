// Where the seeded world's images are: absolute URLs on the workbench's own origin, under
// `/__sandbox-assets/stores/{store_id}/images/{name}-{size}.svg`, served by images.ts. The origin is the
// address the workbench listens on (createWorkbench tells the sandbox once the port is known), never the
// Host a request came in with: a world is built once per store and its answers are cached, so its URLs
// cannot depend on who asked. Records written under another origin (a `--data-dir` journal or a `--data`
// fixture from a run on another port) are moved to this one when a world is built (`rebaseAssetUrls`).

import { ASSETS_PREFIX } from '../http/control-routes.js';

/** The prefix of the generated images: outside the contract and outside /__simulator (see images.ts). */
export const ASSET_PREFIX = ASSETS_PREFIX;

/** The sizes an image comes in (`url_tiny`, `url_thumbnail`, `url_standard`, `url_zoom`): its width and height in pixels. */
export const IMAGE_SIZES = [64, 240, 800, 1600] as const;
export type ImageSize = (typeof IMAGE_SIZES)[number];

/** The workbench's default address, for a sandbox used without a server (tests, in-process use). */
export const DEFAULT_ASSET_ORIGIN = 'http://127.0.0.1:4010';

/** The spec examples' image host: their records are part of every world, with their images served here instead. */
const EXAMPLE_IMAGE = /^https:\/\/cdn\.kesarinaturals\.example\/[^/]+\/images\/([a-z0-9-]+)-(64|240|800|1600)\.webp$/;
const EXAMPLE_VIDEO_THUMBNAIL = /^https:\/\/cdn\.kesarinaturals\.example\/[^/]+\/videos\/([a-z0-9-]+)\/thumb\.webp$/;
const EXAMPLE_FLAG = /^https:\/\/cdn\.kesarinaturals\.example\/[^/]+\/flags\/([a-z]{2})\.svg$/;

/**
 * The origin images are served from, from the workbench's URL: an unspecified listen address (0.0.0.0,
 * ::) is not a place a browser can load from, so the loopback address of the same family stands for it.
 */
export function assetOrigin(serverUrl: string): string {
  const url = new URL(serverUrl);
  if (url.hostname === '0.0.0.0') url.hostname = '127.0.0.1';
  else if (url.hostname === '[::]') url.hostname = '[::1]';
  return url.origin;
}

/** The image URLs of one store's world. */
export class AssetUrls {
  /** `http://127.0.0.1:4010/__sandbox-assets/stores/demo-store/images/` */
  readonly root: string;

  constructor(
    readonly origin: string,
    readonly storeId: string,
  ) {
    this.root = `${origin}${ASSET_PREFIX}/stores/${encodeURIComponent(storeId)}/images/`;
  }

  /** The URL of image `name` at `size` pixels: `.../images/matte-lipstick-ruby-red-240.svg`. */
  image(name: string, size: ImageSize): string {
    return `${this.root}${encodeURIComponent(name)}-${size}.svg`;
  }

  /** The four sizes of an Image record. */
  sizes(name: string): { url_tiny: string; url_thumbnail: string; url_standard: string; url_zoom: string } {
    return { url_tiny: this.image(name, 64), url_thumbnail: this.image(name, 240), url_standard: this.image(name, 800), url_zoom: this.image(name, 1600) };
  }

  /** A video's thumbnail (`image_thumbnail_url`), named after its variant's slug. */
  videoThumbnail(slug: string): string {
    return this.image(`${slug}-video`, 800);
  }

  /** A country's flag (`flag_icon_url`), by its ISO 3166-1 alpha-2 code. */
  flag(iso2: string): string {
    return this.image(`flag-${iso2.toLowerCase()}`, 64);
  }

  /** The name an image URL of this store is served under (`matte-lipstick-ruby-red`), or undefined for any other URL. */
  nameOf(url: string): string | undefined {
    if (!url.startsWith(this.root)) return undefined;
    const m = /^(.+)-(?:64|240|800|1600)\.svg$/.exec(url.slice(this.root.length));
    if (!m) return undefined;
    try {
      return decodeURIComponent(m[1]);
    } catch {
      return undefined;
    }
  }

  /** Every image URL of the spec's examples inside `value`, as this store's served image; other strings unchanged. */
  fromExamples<T>(value: T): T {
    return mapStrings(value, (s) => {
      if (!s.startsWith('https://cdn.kesarinaturals.example/')) return s;
      const image = EXAMPLE_IMAGE.exec(s);
      if (image) return this.image(image[1], Number(image[2]) as ImageSize);
      const thumbnail = EXAMPLE_VIDEO_THUMBNAIL.exec(s);
      if (thumbnail) return this.videoThumbnail(thumbnail[1]);
      const flag = EXAMPLE_FLAG.exec(s);
      return flag ? this.flag(flag[1]) : s;
    });
  }
}

const SERVED = new RegExp(`^https?://[^/]+${ASSET_PREFIX}/`);

/**
 * `value` with every URL of a sandbox's served images on another origin moved to `origin` (records kept by
 * a run on another port). Changes objects in place only where a string differs; returns `value`.
 */
export function rebaseAssetUrls<T>(value: T, origin: string): T {
  const prefix = `${origin}${ASSET_PREFIX}/`;
  return mapStrings(value, (s) => (SERVED.test(s) && !s.startsWith(prefix) ? s.replace(SERVED, prefix) : s));
}

/** Walks JSON-shaped data and replaces strings, in place (arrays and plain objects only). */
function mapStrings<T>(value: T, map: (s: string) => string): T {
  if (typeof value === 'string') return map(value) as T;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = mapStrings(value[i], map);
  } else if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      const v = record[key];
      if (v !== null && typeof v === 'object') mapStrings(v, map);
      else if (typeof v === 'string') {
        const next = map(v);
        if (next !== v) record[key] = next;
      }
    }
  }
  return value;
}
