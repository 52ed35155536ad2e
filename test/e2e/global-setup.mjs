// Runs in Node before the end-to-end files: the migrations applied once into a state directory, which each file's
// `npm run dev` starts from a copy of (it still applies migrations, and finds none left). Removed when the run ends.
import { rmSync } from "node:fs";
import { migratedState } from "../../scripts/lib/servers.mjs";

export default async function setup({ provide }) {
  const state = await migratedState();
  provide("migratedState", state);
  return () => rmSync(state, { recursive: true, force: true });
}
