import { sha256 } from "../crypto/hash";

/**
 * What every server-rendered page shares: its colours in both schemes and the headers that keep it out of
 * caches, frames and other sites' reach. Focus rings and field borders have their own colours, at least 3:1
 * against the card and the page in both schemes (WCAG 1.4.11).
 */
export const PAGE_COLOURS = `
:root{color-scheme:light dark;--bg:#f4f2ee;--card:#fff;--ink:#1d2430;--muted:#5a6372;--line:#d9dce1;--field:#767d89;--accent:#1f5f8b;--accent-ink:#fff;--focus:#a34f00;--warn-bg:#fff4d6;--warn-ink:#5c4300;--err-bg:#fde8e8;--err-ink:#8a1c1c}
@media (prefers-color-scheme:dark){:root{--bg:#14181f;--card:#1d232c;--ink:#e8eaee;--muted:#a3abb8;--line:#343c48;--field:#8c95a3;--accent:#5aa9df;--accent-ink:#0d1722;--focus:#f2a900;--warn-bg:#3b3217;--warn-ink:#f5dc94;--err-bg:#4a1f1f;--err-ink:#ffc9c9}}`;

const styleHashes = new Map<string, Promise<string>>();
const styleSource = (stylesheet: string): Promise<string> => {
  let hash = styleHashes.get(stylesheet);
  if (!hash) {
    hash = sha256(stylesheet).then((digest) => `'sha256-${btoa(String.fromCharCode(...digest))}'`);
    styleHashes.set(stylesheet, hash);
  }
  return hash;
};

export interface PageOptions {
  /** The page's one `<style>` element's text: the policy admits that stylesheet alone, by its hash. */
  stylesheet: string;
  /** Origins a form on the page may submit or be redirected to, besides this one. */
  formTargets?: string[];
  headers?: Headers;
}

/** An HTML response that runs no script, that no cache keeps and that no other site frames. */
export async function htmlResponse(html: string, status: number, { stylesheet, formTargets = [], headers = new Headers() }: PageOptions) {
  const forms = ["'self'", ...formTargets].join(" ");
  headers.set(
    "Content-Security-Policy",
    `default-src 'none'; img-src https:; style-src ${await styleSource(stylesheet)}; form-action ${forms}; frame-ancestors 'none'; base-uri 'none'`,
  );
  headers.set("Content-Type", "text/html; charset=utf-8");
  headers.set("Cache-Control", "no-store");
  headers.set("X-Frame-Options", "DENY");
  headers.set("X-Content-Type-Options", "nosniff");
  headers.set("Referrer-Policy", "no-referrer");
  return new Response(html, { status, headers });
}
