// A Worker that does nothing but answer, so every ratio in the benchmark is against the runtime itself.
const body = JSON.stringify({ status: "ok" });

export default {
  fetch: () => new Response(body, { headers: { "Content-Type": "application/json" } }),
} satisfies ExportedHandler;
