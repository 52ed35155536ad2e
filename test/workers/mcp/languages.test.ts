import type { Client } from "@modelcontextprotocol/client";
import { describe, expect, it } from "vitest";
import { buildDemoContent } from "../../../src/fixture/demo";
import { callTool, openCallers, realmTokens, rpc, sdkClient } from "../support/mcp";

/**
 * The tools in the guest's language: a question in Portuguese, Spanish, French or German finds the FAQs written in
 * it, each result says which language it is in, and a hotel without FAQs in that language answers in its default
 * language (English), marked so. HO-AUR-0041…0060 and DMO-LIS hold pt, es, fr, de; HO-AUR-0001 is English only.
 */

const { aurora, boreal } = openCallers("aurora", "boreal");
const tokens = realmTokens("aurora", "boreal");

const translated = (id: string, language: string) =>
  buildDemoContent()
    .find((r) => r.id === id)!
    .translations!.find((t) => t.language === language)!;

/** Questions as guests write them, each with the category of the FAQ that answers it. */
const QUESTIONS: [language: string, question: string, category: string][] = [
  ["pt", "dá para estacionar o carro no hotel?", "Parking"],
  ["es", "¿hay parking para el coche?", "Parking"],
  ["fr", "est-ce qu'on peut se garer à l'hôtel ?", "Parking"],
  ["de", "kann man beim hotel parken?", "Parking"],
  ["pt", "a que horas posso fazer o check-in?", "Check-in & Check-out"],
  ["es", "¿a qué hora es la salida?", "Check-in & Check-out"],
  ["fr", "à quelle heure faut-il libérer la chambre ?", "Check-in & Check-out"],
  ["de", "wann muss ich auschecken?", "Check-in & Check-out"],
];

describe("service_query in the guest's language", () => {
  it.each(QUESTIONS)("%s: %j finds the FAQ written in it, first, and says its language", async (language, question, category) => {
    const result = await callTool(aurora.token, aurora.session, "service_query", { entity: "HO-AUR-0054", question, language, limit: 3 });
    expect(result.faqs[0]).toMatchObject({ category, language });
    const own = translated("HO-AUR-0054", language).faqs!.map((f) => f.question);
    expect(own).toContain(result.faqs[0].question);
  });

  it("reads the language from the question's words when none is given", async () => {
    const result = await callTool(aurora.token, aurora.session, "service_query", {
      entity: "Aurora Seville Old Town",
      question: "o hotel tem estacionamento para o nosso carro?",
    });
    expect(result.faqs[0]).toMatchObject({ category: "Parking", language: "pt" });
    expect(result.faqs.every((f: { language: string }) => f.language === "pt")).toBe(true);
  });

  it("lists every FAQ in the language asked for when there is no question, pt-BR falling back to pt", async () => {
    const result = await callTool(aurora.token, aurora.session, "service_query", { entity: "HO-AUR-0054", language: "pt-BR" });
    expect(result.faqs.map((f: { question: string }) => f.question)).toEqual(translated("HO-AUR-0054", "pt").faqs!.map((f) => f.question));
    expect(new Set(result.faqs.map((f: { language: string }) => f.language))).toEqual(new Set(["pt"]));
  });

  it("answers from a hotel with no FAQs in the guest's language in its default language, marked en, ranked all the same", async () => {
    const result = await callTool(aurora.token, aurora.session, "service_query", {
      entity: "HO-AUR-0001",
      question: "há wifi grátis no quarto?",
      language: "pt",
    });
    expect(result.faqs[0]).toMatchObject({ category: "Wi-Fi", language: "en", question: "Is Wi-Fi free at Aurora Lisbon Riverside?" });
    expect(result.faqs.every((f: { language: string }) => f.language === "en")).toBe(true);
  });

  it("answers in English, as before, when the question is English or says nothing of its language", async () => {
    for (const question of ["is there parking?", "parking"]) {
      const result = await callTool(aurora.token, aurora.session, "service_query", { entity: "HO-AUR-0054", question });
      expect(result.faqs[0]).toMatchObject({
        category: "Parking",
        language: "en",
        question: "Is there parking at Aurora Seville Old Town?",
      });
    }
  });

  it("refuses a language that is not a BCP 47 tag with a tool error naming the argument", async () => {
    const reply = await rpc(aurora.token, aurora.session, "tools/call", {
      name: "service_query",
      arguments: { entity: "HO-AUR-0054", question: "parking", language: "Portuguese" },
    });
    expect(reply.result.isError).toBe(true);
    expect(reply.result.content[0].text).toMatch(/language: "Portuguese" is not a BCP 47 tag/);
  });
});

describe("service_search_documents in the guest's language", () => {
  it.each(QUESTIONS)(
    "%s: %j finds the FAQ written in it within a hotel, with a snippet of its words",
    async (language, question, category) => {
      const { results } = await callTool(aurora.token, aurora.session, "service_search_documents", {
        query: question,
        entityId: "HO-AUR-0054",
        language,
        limit: 3,
      });
      expect(results[0]).toMatchObject({ entityId: "HO-AUR-0054", category, language });
      expect(results[0].snippet).toMatch(/\*\*/);
    },
  );

  it.each(QUESTIONS)(
    "%s: %j across the organization gives one result per FAQ, in it wherever the hotel has it",
    async (language, question) => {
      const { results } = await callTool(aurora.token, aurora.session, "service_search_documents", {
        query: question,
        language,
        limit: 50,
      });
      expect(results.length).toBeGreaterThan(10);
      const keys = results.map((r: { entityId: string; category: string }) => `${r.entityId} ${r.category}`);
      expect(new Set(keys).size).toBe(keys.length);
      for (const r of results as { entityId: string; language: string }[]) {
        const translatedHotel = r.entityId === "DMO-LIS" || (r.entityId >= "HO-AUR-0041" && r.entityId <= "HO-AUR-0060");
        expect(r.language, r.entityId).toBe(translatedHotel ? language : "en");
      }
    },
  );

  it("narrows to one hotel and answers an English-only one in English", async () => {
    const { results } = await callTool(aurora.token, aurora.session, "service_search_documents", {
      query: "¿se admiten perros?",
      entityId: "HO-AUR-0003",
      language: "es",
    });
    expect(results.length).toBeGreaterThan(0);
    expect(results.every((r: { language: string }) => r.language === "en")).toBe(true);
  });

  it("never shows another organization's translations, from both sides", async () => {
    const fromBoreal = await callTool(boreal.token, boreal.session, "service_search_documents", {
      query: "há estacionamento no Aurora Sevilha Old Town?",
      language: "pt",
      limit: 50,
    });
    expect(fromBoreal.results.every((r: { entityId: string }) => r.entityId.startsWith("HO-BOR"))).toBe(true);
    expect(fromBoreal.results.every((r: { language: string }) => r.language === "en")).toBe(true);
    const named = await callTool(boreal.token, boreal.session, "service_query", { entity: "HO-AUR-0054", language: "pt" });
    expect(named.entity).toBeNull();
    const fromAurora = await callTool(aurora.token, aurora.session, "service_search_documents", {
      query: "parkplatz boreal inn",
      language: "de",
      limit: 50,
    });
    expect(fromAurora.results.every((r: { entityId: string }) => /^(HO-AUR|DMO-LIS)/.test(r.entityId))).toBe(true);
  });
});

describe("search and fetch (ChatGPT) in the guest's language", () => {
  const chatgpt = (token: string): Promise<Client> => sdkClient(token, { endpoint: "/v1/chatgpt", versions: ["2025-06-18"] });
  const parsed = async (client: Client, name: string, args: Record<string, unknown>) => {
    const result = await client.callTool({ name, arguments: args });
    const text = (result.content as { text: string }[])[0]!.text;
    return { isError: result.isError === true, body: result.isError === true ? text : JSON.parse(text) };
  };

  it("finds the translation, names the document by its language, and fetch answers in it with a url in it", async () => {
    const client = await chatgpt(tokens.aurora);
    const { body } = await parsed(client, "search", { query: "Visit Lisboa: há taxa turística em Lisboa?", language: "pt" });
    const first = body.results[0];
    expect(first.id).toBe("DMO-LIS/is-there-a-tourist-tax-in-lisbon/pt");
    expect(first.title).toBe("Visit Lisboa: Existe taxa turística em Lisboa?");
    const fetched = await parsed(client, "fetch", { id: first.id });
    expect(fetched.body.text).toMatch(/^Existe taxa turística em Lisboa\?\n\nSim, 4 EUR/);
    expect(fetched.body.metadata).toMatchObject({ entityId: "DMO-LIS", category: "Policies", language: "pt" });
    // The English document is the same FAQ; fetch may ask for another language.
    const german = await parsed(client, "fetch", { id: "DMO-LIS/is-there-a-tourist-tax-in-lisbon", language: "de" });
    expect(german.body.metadata.language).toBe("de");
    expect(german.body.text).toMatch(/^Gibt es in Lissabon eine Touristensteuer\?/);
    const english = await parsed(client, "fetch", { id: "DMO-LIS/is-there-a-tourist-tax-in-lisbon" });
    expect(english.body.metadata.language).toBe("en");
    await client.close();
  });

  it("cites the feed in the translation's language for an entity without a page of its own", async () => {
    const client = await chatgpt(tokens.aurora);
    const fetched = await parsed(client, "fetch", { id: "DMO-LIS/what-is-the-lisboa-card/fr" });
    expect(fetched.body.url).toBe("https://visit-lisboa.example/");
    await client.close();
  });

  it("refuses a document of another organization, or with a language that is no tag, as not found", async () => {
    const client = await chatgpt(tokens.boreal);
    for (const id of ["DMO-LIS/is-there-a-tourist-tax-in-lisbon/pt", "HO-AUR-0054/is-there-parking-at-aurora-lisbon-old-town/de"]) {
      const fetched = await parsed(client, "fetch", { id });
      expect(fetched.isError, id).toBe(true);
    }
    const aurora = await chatgpt(tokens.aurora);
    expect((await parsed(aurora, "fetch", { id: "DMO-LIS/is-there-a-tourist-tax-in-lisbon/klingonese" })).isError).toBe(true);
    await Promise.all([client.close(), aurora.close()]);
  });
});
