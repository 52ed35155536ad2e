import { Hono, type Context } from "hono";
import { changeOwnPassword } from "../catalogue/people";
import { callerAddress } from "../rate-limit/token-requests";
import { page, seeOther } from "./answers";
import type { ConsoleEnv } from "./context";
import { Csrf, Field, Page, render, type Viewer } from "./pages";
import { newSession, SESSION_COOKIE, SESSION_MAX_MS, setCookie } from "./session";

/**
 * A person's own password: the current one, the new one twice. A wrong current password counts as a failed sign-in
 * (catalogue/people.ts), and every other session of theirs ends once it is changed. A person whose password someone
 * else set comes here first ("choose your password") and can do nothing else until they have.
 */

const FIELD_LABELS: Record<string, string> = { next: "The new password", repeated: "The repeated password" };

const passwordPage = ({
  viewer,
  problems = {},
  done = false,
  mustChoose = false,
}: {
  viewer: Viewer;
  problems?: Record<string, string>;
  done?: boolean;
  mustChoose?: boolean;
}) => (
  <Page title={mustChoose ? "Choose your password" : "Your password"} viewer={viewer}>
    <h1>{mustChoose ? "Choose your password" : "Your password"}</h1>
    {mustChoose && (
      <p class="notice warn">
        The password you signed in with was set by someone else. Choose your own to go on: the console opens once you have.
      </p>
    )}
    {done && (
      <p class="notice ok" role="status">
        Your password was changed. You were signed out everywhere else. <a href="/console">Go to your content</a>.
      </p>
    )}
    {problems.form && (
      <p class="notice error" role="alert">
        {problems.form}
      </p>
    )}
    <form method="post" action="/console/password">
      <Csrf token={viewer.csrf} />
      <Field
        id="current"
        label={mustChoose ? "The password you were given" : "Current password"}
        type="password"
        required
        autocomplete="current-password"
        problem={problems.current}
      />
      <Field
        id="next"
        label="New password (at least 10 characters, not the current one)"
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

const mustChoose = (c: Context<ConsoleEnv>) => c.get("person").must_choose_password === 1;

passwordRoutes.get("/console/password", (c) =>
  page(render(passwordPage({ viewer: c.get("viewer"), done: c.req.query("done") === "1", mustChoose: mustChoose(c) }))),
);

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
    page(render(passwordPage({ viewer: c.get("viewer"), problems, mustChoose: mustChoose(c) })), status, headers);
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
