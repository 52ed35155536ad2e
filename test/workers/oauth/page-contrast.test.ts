import { describe, expect, it } from "vitest";
import { errorPage } from "../../../src/oauth/pages";

/** WCAG 2.2 relative luminance and contrast ratio of two #rgb or #rrggbb colours. */
const luminance = (short: string) => {
  const hex = short.length === 4 ? `#${[...short.slice(1)].map((d) => d + d).join("")}` : short;
  const [r, g, b] = [1, 3, 5]
    .map((i) => parseInt(hex.slice(i, i + 2), 16) / 255)
    .map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
};
const contrast = (a: string, b: string) => {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (light! + 0.05) / (dark! + 0.05);
};

const html = errorPage({ name: "Hospitality Content" }, "Heading", "Message");
/** The custom properties of the light scheme, then the dark scheme's overrides. */
const schemes = [...html.matchAll(/:root\{([^}]*)\}/g)].map(([, body]) =>
  Object.fromEntries([...body!.matchAll(/--([\w-]+):(#[0-9a-f]{6}|#[0-9a-f]{3})\b/g)].map(([, k, v]) => [k, v])),
);
const light = schemes[0]!;
const dark = { ...light, ...schemes[1] };

describe("the pages' non-text contrast (WCAG 1.4.11: at least 3:1)", () => {
  it.each([
    ["light", light],
    ["dark", dark],
  ])("%s: the focus ring against the card and the page, and field borders against the card", (_, colours) => {
    expect(contrast(colours.focus, colours.card)).toBeGreaterThanOrEqual(3);
    expect(contrast(colours.focus, colours.bg)).toBeGreaterThanOrEqual(3);
    expect(contrast(colours.field, colours.card)).toBeGreaterThanOrEqual(3);
    expect(contrast(colours.accent, colours.card)).toBeGreaterThanOrEqual(3);
  });
});
