import type { Env } from "../env";
import type { Branding } from "./pages";

export const DEFAULT_SERVICE_NAME = "Hospitality Content";

/** A configured URL with one of `schemes`, else nothing: a typo must not put a broken or unsafe link on the page. */
function configuredUrl(value: string | undefined, schemes: string[]): string | undefined {
  if (!value) return undefined;
  try {
    const url = new URL(value.trim());
    return schemes.includes(url.protocol) ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/** How the operator names the service on the sign-in, consent and error pages. */
export const branding = (env: Env): Branding => ({
  name: env.SERVICE_NAME?.trim().slice(0, 80) || DEFAULT_SERVICE_NAME,
  logoUrl: configuredUrl(env.SERVICE_LOGO_URL, ["https:"]),
  supportUrl: configuredUrl(env.SUPPORT_URL, ["https:", "mailto:"]),
});
