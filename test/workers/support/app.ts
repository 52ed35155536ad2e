import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { createApp } from "../../../src/app";

const app = createApp();

/**
 * The Worker's answer to `request` with `vars` laid over the test bindings (a var given as undefined is
 * unset), once what it left to waitUntil is done.
 */
export async function fetchWith(request: Request, vars: Partial<typeof env> = {}): Promise<Response> {
  const ctx = createExecutionContext();
  const res = await app.fetch(request, { ...env, ...vars }, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

/**
 * A binding whose calls of `methods` are counted, everything else passed through to the real one; a D1
 * session it opens (`withSession`) is counted too. `statements` are the SQL texts it was asked to prepare.
 */
export function counting<T extends object>(binding: T, methods: string[]): { binding: T; calls: () => number; statements: string[] } {
  let calls = 0;
  const statements: string[] = [];
  const wrap = <U extends object>(target: U): U =>
    new Proxy(target, {
      get(t, property) {
        const value: unknown = Reflect.get(t, property, t);
        if (typeof value !== "function") return value;
        return (...args: unknown[]) => {
          if (methods.includes(String(property))) calls++;
          if (property === "prepare") statements.push(String(args[0]));
          const result: unknown = value.apply(t, args);
          return property === "withSession" ? wrap(result as object) : result;
        };
      },
    });
  return { binding: wrap(binding), calls: () => calls, statements };
}
