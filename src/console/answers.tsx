import { htmlResponse } from "../http/html-page";
import { problemPage, render, STYLESHEET, type Viewer } from "./pages";

/** The console's answers: a page with its stylesheet, a redirect after a POST, a problem in plain words. */

export const page = async (html: Promise<string>, status = 200, headers = new Headers()) =>
  htmlResponse(await html, status, { stylesheet: STYLESHEET, headers });

/** 303 to `location` (a POST's answer, so a reload never posts again), setting `cookies`. */
export function seeOther(location: string, cookies: string[] = []): Response {
  const headers = new Headers({ Location: location, "Cache-Control": "no-store" });
  for (const cookie of cookies) headers.append("Set-Cookie", cookie);
  return new Response(null, { status: 303, headers });
}

export const problem = (status: number, heading: string, message: string, viewer?: Viewer) =>
  page(render(problemPage({ viewer, heading, message })), status);

/** An entity out of the person's reach: the same page whether it exists elsewhere or not. */
export const notInReach = (viewer: Viewer) =>
  problem(404, "Not found", "There is no brand, hotel or page with this ID that you may see.", viewer);

/** A change asked of content the person may only read. */
export const readOnlyContent = (viewer: Viewer) =>
  problem(403, "You can read this content but not change it", "Ask your organization's administrator if you need to edit it.", viewer);

/** What the console answers for a path it has no page for, or when something failed: a page, never JSON. */
export const consoleFallback = (status: 404 | 500) =>
  status === 404
    ? problem(404, "There is no page here", "Check the address, or go back to your content.")
    : problem(
        500,
        "Something went wrong",
        "Nothing more was changed by this request. Try again in a moment; if it keeps happening, tell your operator.",
      );
