import { z } from "@hono/zod-openapi";
import { ChangeEntry, CURSOR_CHARACTERS, decodeCursor, MAX_CHANGES_PER_PAGE } from "../catalogue/changes";
import { LanguageTag } from "../http/language-tags";
import { ENTITY_ID_PATTERN } from "../storage/entities";

/** Content API contract shapes: one schema each, used for validation, types and the OpenAPI document. */

/** A hospitality brand: `HO-` and the rest of an entity ID. */
export const BRAND_ID_PATTERN = /^HO-[A-Za-z0-9._-]{1,125}$/;

export const PropertyItem = z
  .object({
    name: z.string().openapi({ example: "Aurora Lisbon Riverside" }),
    serviceId: z.string().regex(/^HO-/).openapi({ example: "HO-AUR-0001" }),
    propertyId: z.number().int().nullable().openapi({
      description: "The partner's external property ID; always present, null when none is held.",
      example: 482913,
    }),
  })
  .openapi("PropertyItem");
export type PropertyItem = z.infer<typeof PropertyItem>;

export const BrandPropertiesResponse = z
  .object({
    brandId: z.string().openapi({ example: "HO-AUR" }),
    brandName: z.string().openapi({ example: "Aurora Hotels & Resorts" }),
    count: z.number().int().nonnegative(),
    properties: z.array(PropertyItem),
  })
  .openapi("BrandPropertiesResponse");
export type BrandPropertiesResponse = z.infer<typeof BrandPropertiesResponse>;

export const ErrorResponse = z
  .object({
    timestamp: z.string().openapi({
      description: "UTC local date-time with milliseconds, no zone.",
      example: "2026-11-22T10:15:30.123",
    }),
    status: z.number().int().openapi({ example: 404 }),
    error: z.string().openapi({ example: "Not Found" }),
    message: z.string(),
    path: z.string().openapi({ example: "/api/v3/content/HO-XYZ/properties" }),
    fallbackUrlPattern: z.string().optional().openapi({
      description: "Only on 413: fetch each entity at this pattern instead.",
      example: "/api/v3/content/{entityId}/faq.json",
    }),
  })
  .openapi("ErrorResponse");
export type ErrorResponse = z.infer<typeof ErrorResponse>;

export const Answer = z.object({ "@type": z.literal("Answer"), text: z.string() });

export const Question = z
  .object({
    "@type": z.literal("Question"),
    name: z.string(),
    acceptedAnswer: Answer,
    inLanguage: z.string().optional().openapi({
      description: "Only when a language was asked for, and this question is not in the page's: its own language (the entity's default).",
    }),
    category: z.string().optional().openapi({ description: "Only with includeCategory=true." }),
  })
  .openapi("Question");

export const AboutType = z.enum(["Hotel", "Brand", "Organization", "Airport"]);

export const FaqPage = z
  .object({
    "@context": z.literal("https://schema.org").optional().openapi({ description: "Absent inside a @graph." }),
    "@type": z.literal("FAQPage"),
    "@id": z.string().url(),
    about: z.object({
      "@type": AboutType,
      identifier: z.string(),
      name: z.string(),
      url: z.string().url().optional().openapi({ description: "The entity's own public page, when it has one." }),
      propertyId: z.number().int().nullable().optional().openapi({ description: "Only with includePropertyId=true." }),
    }),
    dateModified: z.string(),
    inLanguage: z.string().optional().openapi({
      description: "Only when a language was asked for (lang or Accept-Language): the BCP 47 tag of the language served.",
      example: "pt",
    }),
    mainEntity: z.array(Question),
  })
  .openapi("FAQPage");
export type FaqPage = z.infer<typeof FaqPage>;

export const FaqGraph = z
  .object({
    "@context": z.literal("https://schema.org"),
    "@graph": z.array(FaqPage),
  })
  .openapi("FAQGraph");

export const FaqFeedResponse = z.union([FaqPage, FaqGraph]).openapi("FAQFeedResponse");

const flagValue = z
  .enum(["true", "false", "1", "0"], { message: "must be one of true, false, 1, 0" })
  .transform((v) => v === "true" || v === "1");

/** A boolean flag of the FAQ feed's query: true, false, 1 or 0, false when absent. */
const flag = (name: string, description: string) =>
  flagValue
    .optional()
    .default(false)
    .openapi({ param: { name, in: "query" }, description, type: "string", enum: ["true", "false", "1", "0"] });

/** `lang`: the language a client asks for; it wins over Accept-Language (src/content/languages.ts). */
export const LanguageQuery = z.object({
  lang: LanguageTag.optional().openapi({
    param: { name: "lang", in: "query" },
    description:
      "BCP 47 tag of a language CLDR knows (another is 400); wins over Accept-Language. Served by RFC 4647 lookup (pt-BR falls back to pt), " +
      "else in the entity's default language. Absent, with no Accept-Language: the body is that of the default language, without inLanguage.",
    example: "pt-BR",
  }),
});

export const FaqQuery = z.object({
  includePropertyId: flag("includePropertyId", "Adds `about.propertyId` (integer or null). Default false."),
  includeCategory: flag("includeCategory", "Adds `category` to each Question. Default false."),
  ...LanguageQuery.shape,
});
export type FaqFlags = Pick<z.output<typeof FaqQuery>, "includePropertyId" | "includeCategory">;

// Any entity ID is accepted here, as the 404 it answers for a destination, an airport or a property says.
export const BrandParams = z.object({
  brandId: z
    .string()
    .regex(ENTITY_ID_PATTERN)
    .openapi({
      param: { name: "brandId", in: "path" },
      description: "ID of a hospitality brand entity (HO-…); any other ID (DMO-…, AIR-…, a property's) answers 404.",
      example: "HO-AUR",
    }),
});

export const EntityParams = z.object({
  entityId: z
    .string()
    .regex(ENTITY_ID_PATTERN)
    .openapi({
      param: { name: "entityId", in: "path" },
      description: "Any entity ID; a brand ID returns the bulk @graph of the brand and its properties.",
      example: "HO-AUR-0001",
    }),
});

export const ChangesQuery = z.object({
  cursor: z
    .string()
    .optional()
    .transform((text, ctx) => {
      // An empty cursor is no cursor: a client that keeps none yet may send `cursor=` and starts from the beginning.
      if (text === undefined || text === "") return undefined;
      const cursor = decodeCursor(text);
      if (!cursor) ctx.addIssue({ code: "custom", message: "is not a cursor this feed issued (use nextCursor or X-Changes-Cursor)" });
      return cursor ?? z.NEVER;
    })
    .openapi({
      param: { name: "cursor", in: "query" },
      type: "string",
      pattern: `^(?:${CURSOR_CHARACTERS})?$`,
      description:
        "`nextCursor` of the previous page, or `X-Changes-Cursor` of a stream; from the start of the feed when absent or empty. " +
        "One this feed did not issue is 400.",
    }),
  brandId: z
    .string()
    .regex(BRAND_ID_PATTERN, "must be a hospitality brand ID (HO-…)")
    .optional()
    .openapi({
      param: { name: "brandId", in: "query" },
      description: "Only this brand: the brand itself and its properties.",
      example: "HO-BOR",
    }),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_CHANGES_PER_PAGE)
    .default(MAX_CHANGES_PER_PAGE)
    .openapi({
      param: { name: "limit", in: "query" },
      description: `Changes per page, 1-${MAX_CHANGES_PER_PAGE} (default ${MAX_CHANGES_PER_PAGE}).`,
    }),
});

export const ChangesResponse = z
  .object({
    changes: z.array(ChangeEntry).openapi({ description: "Oldest first; each entity at most once, in its latest state." }),
    nextCursor: z.string().openapi({ description: "Where the next page starts; keep it to poll for later changes." }),
    hasMore: z.boolean().openapi({ description: "More changes follow at once: ask again with nextCursor." }),
  })
  .openapi("ChangesResponse");
export type ChangesResponse = z.infer<typeof ChangesResponse>;

export const FaqStreamLine = z
  .object({
    entityId: z.string().openapi({ example: "HO-BOR-0001" }),
    etag: z.string().openapi({ description: "The ETag of `faqPage` as the entity's own feed serves it.", example: 'W/"0123456789abcdef"' }),
    faqPage: FaqPage.openapi({ description: "Byte for byte the body of the entity's own FAQ feed with the same flags." }),
  })
  .openapi("FAQStreamLine");
