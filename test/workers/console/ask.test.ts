import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { callTool, openCallers } from "../support/mcp";
import { addPeople, HELENA, INES, pageOf, signedIn, unescaped } from "../support/console";

const BOREAL = { email: "bo@boreal.example", password: "boreal-console-asker" };
const AURORA_VIEWER = { email: "vic@aurora.example", password: "aurora-console-reader" };

const { aurora } = openCallers("aurora");

beforeAll(async () => {
  await addPeople([
    { id: "person-bo", organizationId: "org-boreal", ...BOREAL, name: "Bo", grants: [{ role: "administrator", entity_id: null }] },
    {
      id: "person-vic",
      organizationId: "org-aurora",
      ...AURORA_VIEWER,
      name: "Vic",
      grants: [{ role: "viewer", entity_id: "HO-AUR-0001" }],
    },
  ]);
});

/** The ask page's answer: the confidence in words and the FAQs' questions and categories, in order. */
function answerOf(html: string) {
  const confidence = /<span class="confidence">([^<]*)<\/span>/.exec(html)?.[1];
  const listed = [
    ...html.matchAll(/<li lang="([^"]+)"><h3>([^<]*)<\/h3><p>([^<]*)<\/p><p class="muted" lang="en">Category: ([^<]*) · Language: /g),
  ];
  return {
    confidence,
    faqs: listed.map(([, language, question, answer, category]) => ({
      question: unescaped(question!),
      answer: unescaped(answer!),
      category: unescaped(category!),
      language,
    })),
  };
}

const ask = (question: string, language = "") => `?${new URLSearchParams({ question, language }).toString()}`;

const unansweredCount = async () => (await env.DB.prepare("SELECT count(*) AS n FROM unanswered_questions").first<{ n: number }>())!.n;

describe("ask as a guest", () => {
  it("is linked from the entity page and shows the form without a question", async () => {
    const helena = await signedIn(HELENA);
    expect(await pageOf(helena, "/entities/HO-AUR-0001")).toContain('href="/console/entities/HO-AUR-0001/ask"');
    const form = await pageOf(helena, "/entities/HO-AUR-0001/ask");
    expect(form).toContain('<select id="language" name="language">');
    expect(form).not.toContain('class="confidence"');
  });

  it("lists what service_query returns, in its order, with its confidence in plain words", async () => {
    const helena = await signedIn(HELENA);
    const html = await pageOf(helena, `/entities/HO-AUR-0001/ask${ask("is there parking?", "en")}`);
    const shown = answerOf(html);
    expect(shown.confidence).toBe("Answers it");
    expect(shown.faqs[0]!.category).toBe("Parking");
    const tool = await callTool(aurora.token, aurora.session, "service_query", {
      entity: "HO-AUR-0001",
      question: "is there parking?",
      language: "en",
    });
    expect(tool.confidence).toBe("high");
    expect(shown.faqs).toEqual(tool.faqs);

    // Detected from the question's words, as the tool does without a language.
    const detected = answerOf(await pageOf(helena, `/entities/HO-AUR-0001/ask${ask("há estacionamento?")}`));
    const toolDetected = await callTool(aurora.token, aurora.session, "service_query", {
      entity: "HO-AUR-0001",
      question: "há estacionamento?",
    });
    expect(detected.faqs).toEqual(toolDetected.faqs);
    expect(detected.faqs[0]!.category).toBe("Parking");
  });

  it("says which language it read the question in, detected, chosen or assumed", async () => {
    const helena = await signedIn(HELENA);
    const readAs = async (question: string, language = "") =>
      /<p id="read-as">([^<]*)<\/p>/.exec(unescaped(await pageOf(helena, `/entities/HO-AUR-0001/ask${ask(question, language)}`)))?.[1];
    expect(await readAs("há estacionamento?")).toBe("The question was read as Portuguese (detected from its words).");
    expect(await readAs("is er een parkeerplaats bij het hotel?")).toBe("The question was read as Dutch (detected from its words).");
    expect(await readAs("parking?", "de")).toBe("The question was read as German (as chosen).");
    expect(await readAs("wifi?")).toBe("The question was read as English (its words do not say which language).");
  });

  it("says when nothing answers, and does not count the console's questions as guests' unanswered ones", async () => {
    const before = await unansweredCount();
    const viewer = await signedIn(AURORA_VIEWER);
    const html = await pageOf(viewer, `/entities/HO-AUR-0001/ask${ask("is there a karaoke bar with a bowling alley?")}`);
    expect(answerOf(html).confidence).toBe("Not in your content");
    expect(html).toContain("Nothing in this content answers the question");
    expect(await unansweredCount()).toBe(before);
  });

  it("bounds the question as the tool does, in plain words", async () => {
    const helena = await signedIn(HELENA);
    const html = await pageOf(helena, `/entities/HO-AUR-0001/ask${ask("parking ".repeat(70))}`, 400);
    expect(html).toContain("guests&#39; questions may have at most 500");
    expect(html).not.toContain('class="confidence"');
    expect(answerOf(await pageOf(helena, `/entities/HO-AUR-0001/ask${ask("p".repeat(500))}`)).confidence).toBeDefined();
  });

  it("answers Not found for an entity out of reach, the same as for an unknown ID, from both sides", async () => {
    const helena = await signedIn(HELENA);
    const other = await pageOf(helena, `/entities/HO-AUR-0002/ask${ask("is there parking?")}`, 404);
    const unknown = await pageOf(helena, `/entities/HO-NOPE-0001/ask${ask("is there parking?")}`, 404);
    expect(other).toContain("Not found");
    expect(other).toBe(unknown);

    const bo = await signedIn(BOREAL);
    const boreal = await pageOf(bo, `/entities/HO-AUR-0001/ask${ask("is there parking?")}`, 404);
    expect(boreal).not.toContain("parking");
    expect(answerOf(await pageOf(bo, `/entities/HO-BOR-0001/ask${ask("is there parking?")}`)).confidence).toBeDefined();
    await pageOf(await signedIn(INES), `/entities/HO-BOR-0001/ask${ask("is there parking?")}`, 404);
  });
});
