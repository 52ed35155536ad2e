import type { Env } from "../env";
import type { PersonRow } from "../storage/people";
import type { ConsoleAccess } from "./access";
import type { Viewer } from "./pages";

/** What every signed-in console route has: the person, what they may reach, the header's viewer, the form of a POST. */
export type ConsoleEnv = {
  Bindings: Env;
  Variables: { person: PersonRow; access: ConsoleAccess; viewer: Viewer; form: URLSearchParams; token: string };
};
