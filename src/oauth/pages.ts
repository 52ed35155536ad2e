import type { ConsentDescription } from "@cloudflare/workers-oauth-provider";
import { htmlResponse as pageResponse, PAGE_COLOURS } from "../http/html-page";
import { POLICY_PATHS, POLICY_TITLES, type PolicyBlock, type PolicyKind } from "./policies";

/** The server-rendered pages of `/authorize`: sign in, consent, and errors. No script runs on them. */

// Everything interpolated below may come from a client (its name from registration or a metadata document).
export const escapeHtml = (value: string): string => value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

const STYLESHEET = `${PAGE_COLOURS}
*{box-sizing:border-box}
body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;padding:1.5rem;background:var(--bg);color:var(--ink);font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
main{width:100%;max-width:27rem;background:var(--card);border:1px solid var(--line);border-radius:14px;padding:2rem 1.75rem;box-shadow:0 8px 30px rgba(0,0,0,.08)}
.brand{display:flex;align-items:center;gap:.6rem;margin:0 0 1.25rem;font-size:.8rem;font-weight:600;letter-spacing:.08em;text-transform:uppercase;color:var(--muted)}
.brand img{height:1.75rem;width:auto}
a{color:var(--accent)}
h1{margin:0 0 .75rem;font-size:1.35rem;line-height:1.3}
p{margin:0 0 1rem}
.facts{margin:0 0 1.25rem;padding:.75rem 1rem;border:1px solid var(--line);border-radius:10px;font-size:.92rem;color:var(--muted)}
.facts p{margin:.25rem 0}
.facts strong,.lead strong{color:var(--ink)}
ul.grants{margin:0 0 1.25rem;padding-left:1.2rem}
ul.grants li{margin:.3rem 0}
.notice{padding:.75rem 1rem;border-radius:10px;font-size:.92rem}
.warn{background:var(--warn-bg);color:var(--warn-ink)}
.error{background:var(--err-bg);color:var(--err-ink)}
label{display:block;margin:0 0 .35rem;font-weight:600}
input{display:block;width:100%;margin:0 0 1rem;padding:.7rem .8rem;font:inherit;color:inherit;background:transparent;border:1px solid var(--field);border-radius:8px}
.actions{display:flex;flex-wrap:wrap;gap:.75rem;margin-top:1.25rem}
button{flex:1 1 8rem;min-height:2.9rem;padding:.6rem 1rem;font:inherit;font-weight:600;border-radius:8px;border:1px solid var(--accent);cursor:pointer}
.primary{background:var(--accent);color:var(--accent-ink)}
.secondary{background:transparent;color:var(--accent)}
input:focus-visible,button:focus-visible{outline:3px solid var(--focus);outline-offset:2px}
.fine{margin:1.25rem 0 0;font-size:.85rem;color:var(--muted)}
main.policy{max-width:44rem}
.policy h2{margin:1.5rem 0 .5rem;font-size:1.1rem}
.policy ul{margin:0 0 1rem;padding-left:1.2rem}
.policy li{margin:.4rem 0}
nav.policies{margin:1.25rem 0 0;font-size:.85rem}
nav.policies a{margin-right:1rem}
`;

/** How the operator names the service on these pages (SERVICE_NAME, SERVICE_LOGO_URL, SUPPORT_URL). */
export interface Branding {
  name: string;
  /** https only: the page's policy loads images from nowhere else. */
  logoUrl?: string;
  supportUrl?: string;
}

/** Every page links the privacy policy and the terms, as app directories ask of a connector's pages. */
const POLICY_LINKS = `\n<nav class="policies" aria-label="Policies">${(Object.keys(POLICY_PATHS) as PolicyKind[])
  .map((kind) => `<a href="${POLICY_PATHS[kind]}">${POLICY_TITLES[kind]}</a>`)
  .join("")}</nav>`;

function layout(brand: Branding, title: string, body: string, mainClass?: string): string {
  const logo = brand.logoUrl ? `<img src="${escapeHtml(brand.logoUrl)}" alt="">` : "";
  const support = brand.supportUrl
    ? `\n<p class="fine">Questions? <a href="${escapeHtml(brand.supportUrl)}" rel="noopener noreferrer">Contact support</a>.</p>`
    : "";
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)} · ${escapeHtml(brand.name)}</title>
<style>${STYLESHEET}</style>
</head>
<body>
<main${mainClass ? ` class="${mainClass}"` : ""}>
<p class="brand">${logo}${escapeHtml(brand.name)}</p>
${body}${support}${POLICY_LINKS}
</main>
</body>
</html>`;
}

/** Who is asking and where access goes: the facts the MCP authorization spec says a consent page must show. */
function clientFacts(details: ConsentDescription): string {
  const origin = details.clientDomain
    ? `<p>Published by <strong>${escapeHtml(details.clientDomain)}</strong>.</p>`
    : `<p>App ID <strong>${escapeHtml(details.clientId)}</strong>; its name is not verified.</p>`;
  const loopback = details.redirectIsLoopback
    ? `<p class="notice warn" role="note">Access goes to an app on this computer. Continue only if you just started connecting from it.</p>`
    : "";
  return `<div class="facts">${origin}<p>Access is sent to <strong>${escapeHtml(details.redirectHost)}</strong>.</p></div>${loopback}`;
}

export interface SignInView {
  brand: Branding;
  details: ConsentDescription;
  handle: string;
  error?: string;
  email?: string;
}

export function signInPage({ brand, details, handle, error, email = "" }: SignInView): string {
  const name = escapeHtml(details.clientName);
  const alert = error ? `<p class="notice error" id="signin-error" role="alert">${escapeHtml(error)}</p>` : "";
  const describedBy = error ? ` aria-describedby="signin-error" aria-invalid="true"` : "";
  return layout(
    brand,
    `Sign in to connect ${details.clientName}`,
    `<h1>Sign in to connect ${name}</h1>
<p class="lead"><strong>${name}</strong> asks to read your organization's hotel content. Sign in with your organization account to review the request.</p>
${clientFacts(details)}
<form method="post" action="/authorize">
<input type="hidden" name="handle" value="${escapeHtml(handle)}">
${alert}
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="username" required autofocus value="${escapeHtml(email)}"${describedBy}>
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required${describedBy}>
<div class="actions">
<button class="primary" type="submit" name="decision" value="signin">Continue</button>
<button class="secondary" type="submit" name="decision" value="deny" formnovalidate>Deny</button>
</div>
</form>`,
  );
}

export interface ConsentView {
  brand: Branding;
  details: ConsentDescription;
  handle: string;
  email: string;
  organizationName: string;
  /** How long access lasts unless ended sooner, in days. */
  lifetimeDays: number;
}

export function consentPage({ brand, details, handle, email, organizationName, lifetimeDays }: ConsentView): string {
  const name = escapeHtml(details.clientName);
  const org = escapeHtml(organizationName);
  return layout(
    brand,
    `Allow ${details.clientName} to access ${organizationName}?`,
    `<h1>Allow ${name} to access ${org}?</h1>
<p class="lead">Signed in as <strong>${escapeHtml(email)}</strong> of <strong>${org}</strong>.</p>
<p>If you allow it, ${name} can:</p>
<ul class="grants">
<li>read ${org}'s hotel content: the brands, hotels, destinations and airports it shares, with their FAQs;</li>
<li>search that content to answer guests' questions. It cannot change anything.</li>
</ul>
${clientFacts(details)}
<form method="post" action="/authorize">
<input type="hidden" name="handle" value="${escapeHtml(handle)}">
<div class="actions">
<button class="primary" type="submit" name="decision" value="allow">Allow</button>
<button class="secondary" type="submit" name="decision" value="deny">Deny</button>
</div>
</form>
<p class="fine">Access lasts ${lifetimeDays} days unless it is ended sooner. To end it, remove the app from your assistant, or ask your organization's administrator to revoke it.</p>`,
  );
}

export const errorPage = (brand: Branding, heading: string, message: string): string =>
  layout(
    brand,
    heading,
    `<h1>${escapeHtml(heading)}</h1>\n<p class="notice error" role="alert">${escapeHtml(message)}</p>\n<p>Go back to the app you were connecting and start again.</p>`,
  );

const policyBlock = (block: PolicyBlock): string =>
  "heading" in block
    ? `<h2>${escapeHtml(block.heading)}</h2>`
    : "items" in block
      ? `<ul>${block.items.map((item) => `<li>${escapeHtml(item)}</li>`).join("")}</ul>`
      : `<p>${escapeHtml(block.paragraph)}</p>`;

/** `/privacy` or `/terms`: the operator's text (policies.ts), as plain as the sign-in page. */
export const policyPage = (brand: Branding, kind: PolicyKind, blocks: PolicyBlock[]): string =>
  layout(brand, POLICY_TITLES[kind], `<h1>${POLICY_TITLES[kind]}</h1>\n${blocks.map(policyBlock).join("\n")}`, "policy");

/** A page of this flow as an HTML response; `formTargets` are the origins a form on it may submit or be redirected to. */
export const htmlResponse = (html: string, status: number, formTargets: string[] = [], headers = new Headers()): Promise<Response> =>
  pageResponse(html, status, { stylesheet: STYLESHEET, formTargets, headers });
