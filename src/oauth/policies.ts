import type { Env } from "../env";

/**
 * The privacy policy and the terms of use that app directories ask a connector to link (docs/connector.md), served at
 * `/privacy` and `/terms`. The operator's text comes from `PRIVACY_POLICY` and `TERMS_OF_USE` (set from a file:
 * `wrangler secret put PRIVACY_POLICY < privacy.txt`); without it, the defaults below say what this service stores,
 * why, and for how long. The text is plain: paragraphs separated by a blank line, `## ` before a heading, `- ` before
 * an item of a list, `{service}` for the service's name. Nothing in it is HTML: every character is shown as written.
 */

export const POLICY_PATHS = { privacy: "/privacy", terms: "/terms" } as const;
export type PolicyKind = keyof typeof POLICY_PATHS;

export const POLICY_TITLES: Record<PolicyKind, string> = { privacy: "Privacy policy", terms: "Terms of use" };

const DEFAULT_PRIVACY = `{service} answers travellers' questions from a hotel group's own content, through assistants such as Claude and ChatGPT, and serves that content to the group's partners. This page says what it keeps about people, why, and for how long. The organization that runs this deployment decides what it is used for and answers for it.

## Questions that guests' assistants send
- A question is used to find the FAQ that answers it, and is not kept.
- A question the content cannot answer is counted, so that the hotel's content team can add the answer: the question in lower case and cut at 200 characters, with e-mail addresses, links, phone numbers, long tokens and other runs of five or more digits replaced by placeholders such as [email] and [phone]; the day, when it was last asked, the tool that was asked, the hotel it was asked of and its language. Nothing about who asked it. These counts are deleted after 30 days.
- While an assistant is connected, its session keeps which app it is, the organization and the person who allowed it, and the name and version the assistant gives itself. A session ends after a while without a request and at most a day after it began (by default 30 minutes and 24 hours), and is then deleted.

## People who sign in
- An account: e-mail address, name, organization and roles, and the password only as a salted and peppered hash (PBKDF2), never in a form that can be read back. Kept while the account exists.
- A signed-in session of the content console is kept as a hash of its token, and ends after 30 minutes without a request or 12 hours after signing in.
- An assistant that a person allows to read the content gets a grant: its tokens are kept as hashes only. An access token lasts one hour; the grant 30 days, unless the person or an administrator ends it sooner.
- Failed sign-ins are counted, with the network address they came from, to slow down password guessing: per address and per account for one hour, and per e-mail address and network address until a day passes without one.

## Changes to the content
- Every change made through the console or the operator's tools is recorded with who made it, when, and the values before and after: the hotels' FAQs and translations, API keys, people and their roles. The record is kept as long as the organization's content, so that any change can be traced.

## Partners
- Partners read the content with API keys, which are kept as hashes. Requests are counted per key and hour to enforce the key's limit.

## What the service does not do
- It sets no advertising or tracking cookies: its only cookies keep a console session and a connection being allowed, and last no longer than they do. It does not sell or share what it keeps, and does not read an assistant's conversation beyond the question it is asked.
- It runs on Cloudflare's network, whose request logs the operator may keep as its own.

## Your choices
- To see, correct or delete your account, ask your organization's administrator, or the operator of this deployment.`;

const DEFAULT_TERMS = `{service} serves a hotel group's own content (its hotels, brands, destinations and airports, with their frequently asked questions) to assistants and partners that the group allows.

## The content
- The hotel group writes the content and answers for it. An answer is only as current as the FAQ it comes from: check prices, times and availability with the hotel before relying on them.
- Each answer says how sure the service is that it answers the question: high when the FAQ answers it, low when the FAQs found are related but may not answer it, none when the content does not say.

## Using the service
- Use it only with the access you were given: an API key, an account or a connected assistant of your organization. Do not share keys or passwords, and do not try to reach content or accounts of another organization.
- Keep within the limits of your key and your organization; requests beyond them are refused until the hour is over.
- Do not use the service to send anything unlawful, or to slow it down for others.

## No warranty
- The service is provided as it is. Access may be suspended to protect the service or other organizations, and these terms may change.

## Contact
- Questions about these terms go to the operator of this deployment.`;

/** A policy as the page shows it: blocks of paragraphs, headings and lists, in order. */
export type PolicyBlock = { heading: string } | { paragraph: string } | { items: string[] };

const LONGEST_POLICY = 50_000;

/** Reads the policy's plain text into blocks. */
export function policyBlocks(text: string, serviceName: string): PolicyBlock[] {
  return text
    .slice(0, LONGEST_POLICY)
    .replaceAll("{service}", serviceName)
    .split(/\r?\n\s*\r?\n/)
    .flatMap((chunk): PolicyBlock[] => {
      const lines = chunk
        .split(/\r?\n/)
        .map((line) => line.trim())
        .filter((line) => line !== "");
      const blocks: PolicyBlock[] = [];
      for (const line of lines) {
        const last = blocks[blocks.length - 1];
        if (line.startsWith("## ")) blocks.push({ heading: line.slice(3).trim() });
        else if (line.startsWith("- ")) {
          if (last && "items" in last) last.items.push(line.slice(2).trim());
          else blocks.push({ items: [line.slice(2).trim()] });
        } else if (last && "paragraph" in last) last.paragraph += ` ${line}`;
        else blocks.push({ paragraph: line });
      }
      return blocks;
    });
}

/** The operator's text of a policy, or the default. */
export const policyText = (env: Env, kind: PolicyKind): string =>
  (kind === "privacy" ? env.PRIVACY_POLICY : env.TERMS_OF_USE)?.trim() || (kind === "privacy" ? DEFAULT_PRIVACY : DEFAULT_TERMS);
