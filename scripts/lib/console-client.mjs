// The content console as a browser without script uses it, for the benchmarks: its cookies, its forms' hidden fields.

/** A hidden or text field's value in a page (the first one named `name`), HTML entities decoded. */
const fieldOf = (html, name) => {
  const raw = new RegExp(`name="${name}"[^>]*value="([^"]*)"`).exec(html)?.[1];
  if (raw === undefined) throw new Error(`no field ${name} in the page`);
  return raw
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
};
const textareaOf = (html, name) =>
  fieldOf(html.replace(new RegExp(`<textarea([^>]*name="${name}"[^>]*)>([^<]*)</textarea>`), '<input$1 value="$2">'), name);

/** Signs in as `email` and returns requests made with the session's cookie. */
export async function consoleClient(origin, email, password) {
  const cookies = new Map();
  const keep = (res) => {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const [name, value] = pair.split("=");
      cookies.set(name, value);
    }
    return res;
  };
  const cookie = () => [...cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  const get = async (path) => keep(await fetch(`${origin}${path}`, { headers: { Cookie: cookie() }, redirect: "manual" }));
  const post = async (path, fields) =>
    keep(
      await fetch(`${origin}${path}`, {
        method: "POST",
        headers: { Cookie: cookie(), "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(fields),
        redirect: "manual",
      }),
    );
  const signIn = await get("/console/sign-in");
  const signedIn = await post("/console/sign-in", { csrf: fieldOf(await signIn.text(), "csrf"), email, password });
  if (signedIn.status !== 303) throw new Error(`signing in as ${email}: HTTP ${signedIn.status}`);

  /** The edit form of FAQ `position` of `entityId`: its hidden fields and the FAQ's text. */
  const faqForm = async (entityId, position) => {
    const html = await (await get(`/console/entities/${entityId}/faqs/${position}`)).text();
    return {
      csrf: fieldOf(html, "csrf"),
      version: fieldOf(html, "version"),
      faq: { question: fieldOf(html, "question"), answer: textareaOf(html, "answer"), category: fieldOf(html, "category") },
    };
  };

  /**
   * Saves FAQ `position` of `entityId` with its answer and another one in turn, each save on the version the
   * previous one left (a list's version is the hash of its FAQs, so each of the two texts has its own).
   */
  const alternatingSave = async (entityId, position) => {
    const first = await faqForm(entityId, position);
    const texts = [first.faq, { ...first.faq, answer: `${first.faq.answer} (Updated.)` }];
    const versions = [first.version];
    let shown = 0;
    return async () => {
      const next = 1 - shown;
      const res = await post(`/console/entities/${entityId}/faqs/${position}`, {
        csrf: first.csrf,
        version: versions[shown],
        ...Object.fromEntries(Object.entries(texts[shown]).map(([field, value]) => [`original_${field}`, value])),
        ...texts[next],
      });
      if (res.status !== 303) throw new Error(`saving: HTTP ${res.status}`);
      shown = next;
      versions[shown] ??= (await faqForm(entityId, position)).version;
      return res;
    };
  };

  /** Uploads `text` as file `name` from the import page, as a browser's form sends it. */
  const upload = async (name, text) => {
    const csrf = fieldOf(await (await get("/console/import")).text(), "csrf");
    const form = new FormData();
    form.set("csrf", csrf);
    form.set("file", new File([text], name, { type: "text/plain" }));
    return keep(await fetch(`${origin}/console/import`, { method: "POST", headers: { Cookie: cookie() }, body: form, redirect: "manual" }));
  };

  return { get, post, faqForm, alternatingSave, upload };
}
