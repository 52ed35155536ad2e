/**
 * The shape of a URL the service sends people to or calls, chosen by someone else (a connector client's redirect
 * URI, a webhook endpoint), as the operator API's document states it: https, or http on a loopback host; a port of
 * at most 65535; no user information, no fragment, no spaces. Which hosts are acceptable beyond that (public ones,
 * loopback only in development, those the operator allowed) is checked where the URL is used.
 */
const HOST = String.raw`[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*`;
const LOOPBACK_HOST = String.raw`(?:localhost|127\.0\.0\.1|\[::1\])`;
const PORT = String.raw`(?::(?:6553[0-5]|655[0-2]\d|65[0-4]\d{2}|6[0-4]\d{3}|[1-5]\d{4}|\d{1,4}))?`;

export const CALLBACK_URL_PATTERN = `^(?:https://${HOST}|http://${LOOPBACK_HOST})${PORT}(?:[/?][^#\\s]*)?$`;
