import { Hono } from "hono";
import { changeOwnPassword } from "../catalogue/people";
import { callerAddress } from "../rate-limit/token-requests";
import { page, seeOther } from "./answers";
import type { ConsoleEnv } from "./context";
import { Csrf, Field, Page, render, type Viewer } from "./pages";
import { newSession, SESSION_COOKIE, SESSION_MAX_MS, setCookie } from "./session";

/**
 * A person's own password: the current one, the new one twice. A wrong current password counts as a failed sign-in
 * (catalogue/people.ts), and every other session of theirs ends once it is changed.
 */

const FIELD_LABELS: Record<string, string> = { next: "The new password", repeated: "The repeated password" };

const passwordPage = ({ viewer, problems = {}, done = false }: { viewer: Viewer; problems?: Record<string, string>; done?: boolean }) => (
  <Page title="Your password" viewer={viewer}>
    <h1>Your password</h1>
    {done && (
      <p class="notice ok" role="status">
        Your password was changed. You were signed out everywhere else.
      </p>
    )}
    {problems.form && (
      <p class="notice error" role="alert">
        {problems.form}
      </p>
    )}
    <form method="post" action="/console/password">
      <Csrf token={viewer.csrf} />
      <Field id="current" label="Current password" type="password" required autocomplete="current-password" problem={problems.current} />
      <Field
        id="next"
        label="New password (at least 10 characters)"
        type="password"
        required
        autocomplete="new-password"
        problem={problems.next}
      />
      <Field id="repeated" label="New password again" type="password" required autocomplete="new-password" problem={problems.repeated} />
      <button class="primary" type="submit">
        Change my password
      </button>
    </form>
  </Page>
);

export const passwordRoutes = new Hono<ConsoleEnv>();

passwordRoutes.get("/console/password", (c) => page(render(passwordPage({ viewer: c.get("viewer"), done: c.req.query("done") === "1" }))));

passwordRoutes.post("/console/password", async (c) => {
  const form = c.get("form");
  const replacement = await newSession(c.get("person").id, Date.now());
  const outcome = await changeOwnPassword(c.env, c.get("person"), {
    current: form.get("current") ?? "",
    next: form.get("next") ?? "",
    repeated: form.get("repeated") ?? "",
    address: callerAddress(c.req.raw, c.env),
    replacementSession: replacement.row,
  });
  const again = (status: number, problems: Record<string, string>, headers?: Headers) =>
    page(render(passwordPage({ viewer: c.get("viewer"), problems })), status, headers);
  switch (outcome.outcome) {
    case "saved":
      return seeOther("/console/password?done=1", [setCookie(SESSION_COOKIE, replacement.token, SESSION_MAX_MS / 1000)]);
    case "invalid":
      return again(
        400,
        Object.fromEntries(outcome.problems.map(({ field, message }) => [field, `${FIELD_LABELS[field] ?? "The form"} ${message}.`])),
      );
    case "wrong_current":
      return again(400, { current: "The current password is not correct. Nothing was changed." });
    case "throttled":
      return again(
        429,
        { form: "Too many wrong passwords: wait a few minutes, then try again. Nothing was changed." },
        new Headers(outcome.retryAfterSeconds ? { "Retry-After": String(outcome.retryAfterSeconds) } : {}),
      );
  }
});
