const forms = new WeakMap<Request, Promise<URLSearchParams>>();

/**
 * A request's urlencoded form, read from a copy once however many steps look at it before the handler,
 * which still gets the body whole.
 */
export function requestForm(request: Request): Promise<URLSearchParams> {
  let form = forms.get(request);
  if (!form) {
    form = request
      .clone()
      .arrayBuffer()
      .then((bytes) => new URLSearchParams(new TextDecoder().decode(bytes)));
    forms.set(request, form);
  }
  return form;
}
