// `npm run bench -- --imports`: content files at the console's upload limit, each built to cost the most, uploaded
// while a content GET is sent again and again: how long the upload's answer takes, and what it does to the GETs
// beside it (p50 against the same GETs alone, in the same run). The limit is the console's 4 MB form.

const FILE_BYTES = 4 * 1024 * 1024 - 1024;
const CSV_HEADER = "entity,position,category,question,answer,language,source\n";

/** Rows made by `row(n)` until the next would pass FILE_BYTES, after `head` and before `tail`. */
function filled(head, row, tail = "") {
  const parts = [head];
  let bytes = head.length + tail.length;
  for (let n = 0; ; n += 1) {
    const next = row(n);
    if (bytes + next.length > FILE_BYTES) break;
    parts.push(next);
    bytes += next.length;
  }
  parts.push(tail);
  return parts.join("");
}

const faq = JSON.stringify({ category: "Stay", question: "Is breakfast included?", answer: "Yes." });

/** The files of the fourth review's H1, and the largest file the console takes that is valid. */
export const IMPORT_FILES = [
  {
    name: "one NDJSON record repeating one FAQ",
    file: "repeat.ndjson",
    text: () =>
      filled('{"id":"HO-AUR-0001","kind":"property","brandId":"HO-AUR","name":"Aurora","faqs":[', (n) => `${n ? "," : ""}${faq}`, "]}\n"),
  },
  {
    name: "a CSV of translation rows in distinct languages",
    file: "languages.csv",
    text: () => filled(CSV_HEADER, (n) => `HO-BOR-0001,,,q,a,l${n},s\n`),
  },
  { name: 'two million lines of "1"', file: "ones.ndjson", text: () => filled("", () => "1\n") },
  {
    name: "valid: 40 hotels of 500 FAQs each (the most a file's parsing costs)",
    file: "valid.ndjson",
    text: () =>
      Array.from({ length: 40 }, (_, h) =>
        JSON.stringify({
          id: `HO-BENCH-${h}`,
          kind: "property",
          brandId: "HO-AUR",
          name: `Bench ${h}`,
          faqs: Array.from({ length: 500 }, (_, n) => ({
            category: "Stay",
            question: `Question ${n} of ${h}?`,
            answer: `Answer ${n}. `.repeat(8),
          })),
        }),
      )
        .join("\n")
        .slice(0, FILE_BYTES),
  },
];

const percentile = (values, p) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((values.length * p) / 100))];

async function timed(send) {
  const start = performance.now();
  const res = await send();
  await res.arrayBuffer();
  return { ms: performance.now() - start, status: res.status };
}

export async function importBench(origin, console_, { samples }) {
  const get = () => fetch(`${origin}/api/v3/content/HO-AUR-0001/faq.json`, { headers: { "X-API-Key": "bench-key" } });
  const alone = [];
  for (let i = 0; i < samples; i += 1) alone.push((await timed(get)).ms);
  const aloneP50 = percentile(alone, 50);
  console.log(
    `\nContent files at the console's upload limit (${(FILE_BYTES / 1_048_576).toFixed(2)} MiB), each beside content GETs of HO-AUR-0001\n`,
  );
  console.log(`Content GET alone: p50 ${aloneP50.toFixed(1)} ms over ${samples} requests.\n`);
  console.log("| file | answer | answer ms | GETs during it | their p50 ms | p50 vs alone |");
  console.log("|---|---:|---:|---:|---:|---:|");
  for (const { name, file, text } of IMPORT_FILES) {
    const body = text();
    let uploading = true;
    const beside = [];
    const gets = (async () => {
      while (uploading) beside.push((await timed(get)).ms);
    })();
    const answer = await timed(() => console_.upload(file, body));
    uploading = false;
    await gets;
    const p50 = beside.length ? percentile(beside, 50) : NaN;
    console.log(
      `| ${name} | ${answer.status} | ${answer.ms.toFixed(0)} | ${beside.length} | ${p50.toFixed(1)} | ${(p50 / aloneP50).toFixed(2)} |`,
    );
  }
}
