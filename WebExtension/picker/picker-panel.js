// The picker's panel in the page. Every element carries its styling inline and !important:
// the page's CSS and the user's own personal filters (author-origin sheets) cannot restyle or
// hide it, and data-adv-ui keeps it out of picking, match counts and filter enforcement.
// Look: the popup's Bauhaus palette (warm paper, black type and rules, primary-colour shapes,
// numbered sections, rectangular controls), light in Dark Mode too.
"use strict";

var ADVPickerPanel = (() => {
  const PALETTE = { paper: "#f4efe4", ink: "#111111", red: "#d62e1f", blue: "#1f4fd6", yellow: "#f2c12e" };
  const FONT = "13px/1.4 \"Helvetica Neue\", Helvetica, Arial, sans-serif";
  const MONO = "12px/1.4 Menlo, monospace";

  const STYLES = {
    root: { display: "block", position: "fixed", right: "16px", bottom: "16px", "z-index": "2147483647", width: "360px", "max-height": "80vh", overflow: "auto",
      background: PALETTE.paper, color: PALETTE.ink, border: "2px solid " + PALETTE.ink, "border-radius": "0", font: FONT, "color-scheme": "light",
      "box-shadow": "6px 6px 0 " + PALETTE.ink, margin: "0", padding: "0", "text-align": "left" },
    header: { display: "flex", "align-items": "center", gap: "8px", padding: "10px 12px", "border-bottom": "2px solid " + PALETTE.ink, margin: "0" },
    mark: { display: "inline-block", width: "14px", height: "14px", background: PALETTE.red, "border-radius": "0" },
    title: { display: "inline", margin: "0", font: "bold 14px/1.2 \"Helvetica Neue\", Helvetica, Arial, sans-serif", "letter-spacing": "0.06em", "text-transform": "uppercase" },
    section: { display: "block", padding: "8px 12px", "border-bottom": "1px solid " + PALETTE.ink, margin: "0" },
    heading: { display: "block", margin: "0 0 6px", font: "bold 12px/1.4 \"Helvetica Neue\", Helvetica, Arial, sans-serif", "text-transform": "uppercase", "letter-spacing": "0.06em" },
    number: { display: "inline-block", width: "18px", height: "18px", "margin-right": "6px", background: PALETTE.blue, color: PALETTE.paper, "text-align": "center" },
    list: { display: "block", "list-style": "none", margin: "0", padding: "0" },
    item: { display: "flex", "align-items": "center", gap: "8px", padding: "4px 0", "border-top": "1px solid rgba(0,0,0,0.15)", margin: "0" },
    code: { display: "block", flex: "1", font: MONO, "word-break": "break-all", color: PALETTE.ink, background: "transparent" },
    count: { display: "inline-block", font: FONT, "white-space": "nowrap" },
    text: { display: "block", margin: "0", font: FONT, color: PALETTE.ink },
    error: { display: "block", margin: "4px 0 0", font: FONT, color: PALETTE.red },
    label: { display: "flex", "align-items": "center", gap: "6px", font: FONT, color: PALETTE.ink, margin: "0" },
    input: { display: "block", width: "100%", "box-sizing": "border-box", border: "2px solid " + PALETTE.ink, "border-radius": "0", background: "#ffffff", color: PALETTE.ink, font: MONO, padding: "3px 4px", margin: "0 0 6px" },
    checkbox: { display: "inline-block", margin: "0", "accent-color": PALETTE.blue },
    row: { display: "flex", gap: "8px", "flex-wrap": "wrap", padding: "8px 12px", margin: "0" },
    button: { display: "inline-block", border: "2px solid " + PALETTE.ink, "border-radius": "0", background: PALETTE.yellow, color: PALETTE.ink, font: FONT, padding: "3px 10px", cursor: "pointer", margin: "0" },
    primary: { display: "inline-block", border: "2px solid " + PALETTE.ink, "border-radius": "0", background: PALETTE.blue, color: PALETTE.paper, font: FONT, padding: "3px 10px", cursor: "pointer", margin: "0" },
    status: { display: "block", margin: "0", padding: "6px 12px 10px", font: FONT, color: PALETTE.ink, "min-height": "1.4em" },
  };

  function styled(tag, styleName, properties) {
    const element = document.createElement(tag);
    for (const [name, value] of Object.entries(STYLES[styleName])) element.style.setProperty(name, value, "important");
    for (const [name, value] of Object.entries(properties || {})) {
      if (name === "text") element.textContent = value;
      else element.setAttribute(name, value);
    }
    return element;
  }

  function section(number, title, id) {
    const box = styled("section", "section", { id });
    const heading = styled("h2", "heading");
    heading.append(styled("span", "number", { text: String(number), "aria-hidden": "true" }), document.createTextNode(title));
    box.append(heading);
    return box;
  }

  /**
   * Builds the panel (not yet in the page). `actions` receives the user's intents:
   * remove(index), edit(text), similar(on), toggleSource(host, on), blockSources(), save(), cancel(), help().
   */
  function create(actions) {
    const root = styled("div", "root", { id: "adv-picker-panel", "data-adv-ui": "", role: "dialog", "aria-label": "ADV element picker" });
    const header = styled("header", "header");
    header.append(styled("span", "mark", { "aria-hidden": "true" }), styled("h1", "title", { text: "Pick elements to hide" }));

    const review = section(1, "Selected filters", "adv-picker-selections");
    const hint = styled("p", "text", { id: "adv-picker-empty", text: "Click elements on the page to select them. Click again to deselect." });
    const list = styled("ol", "list", { id: "adv-picker-review" });
    const similarLabel = styled("label", "label");
    const similar = styled("input", "checkbox", { id: "adv-picker-similar", type: "checkbox" });
    similarLabel.append(similar, document.createTextNode("Match similar elements by class or tag"));
    review.append(hint, list, similarLabel);

    const editor = section(2, "Edit the last filter", "adv-picker-editor");
    const edit = styled("input", "input", { id: "adv-picker-edit", type: "text", spellcheck: "false", autocomplete: "off", "aria-label": "Selector of the last selected filter" });
    const editApply = styled("button", "button", { id: "adv-picker-edit-apply", type: "button", text: "Use this selector" });
    const editError = styled("p", "error", { id: "adv-picker-edit-error", role: "alert" });
    editor.append(edit, editApply, editError);

    const sources = section(3, "Source hosts · block everywhere", "adv-picker-sources");
    const sourceHint = styled("p", "text", { id: "adv-picker-sources-empty", text: "No image, frame or media source found in the selection." });
    const sourceList = styled("ul", "list", { id: "adv-picker-source-list" });
    const blockSources = styled("button", "button", { id: "adv-picker-block-sources", type: "button", text: "Block sources everywhere" });
    sources.append(sourceHint, sourceList, blockSources);

    const footer = styled("div", "row");
    const save = styled("button", "primary", { id: "adv-picker-save", type: "button", text: "Hide 0 selected filter(s)" });
    const cancel = styled("button", "button", { id: "adv-picker-cancel", type: "button", text: "Cancel" });
    // Hands the last selection to ADV's workspace (or the next popup) without saving it.
    const help = styled("button", "button", { id: "adv-picker-help", type: "button", text: "Help with last selection" });
    footer.append(save, cancel, help);
    const status = styled("p", "status", { id: "adv-picker-status", role: "status" });
    root.append(header, review, editor, sources, footer, status);

    similar.addEventListener("change", () => actions.similar(similar.checked));
    editApply.addEventListener("click", () => actions.edit(edit.value));
    edit.addEventListener("keydown", (event) => {
      if (event.key !== "Enter") return;
      event.preventDefault();
      actions.edit(edit.value);
    });
    blockSources.addEventListener("click", () => actions.blockSources());
    save.addEventListener("click", () => actions.save());
    cancel.addEventListener("click", () => actions.cancel());
    help.addEventListener("click", () => actions.help());

    function selectionItem(selection, index) {
      const li = styled("li", "item", { "data-index": String(index) });
      const code = styled("code", "code", { class: "adv-picker-selector", text: selection.selector });
      const count = styled("span", "count", { class: "adv-picker-count", text: selection.count + " matching" });
      const remove = styled("button", "button", { class: "adv-picker-remove", type: "button", text: "Remove" });
      remove.addEventListener("click", () => actions.remove(index));
      li.append(code, count, remove);
      return li;
    }

    function sourceItem(source) {
      const li = styled("li", "item", { "data-host": source.host });
      const label = styled("label", "label");
      const box = styled("input", "checkbox", { type: "checkbox", class: "adv-picker-source", value: source.host });
      box.checked = source.checked;
      if (source.blocked) box.disabled = true;
      box.addEventListener("change", () => actions.toggleSource(source.host, box.checked));
      label.append(box, document.createTextNode(source.host + (source.blocked ? " · blocked" : "")));
      li.append(label);
      return li;
    }

    /** Shows `view`: { selections: [{ selector, count }], similar, sources: [{ host, checked, blocked }], lastSelector }. */
    function render(view) {
      list.textContent = "";
      view.selections.forEach((selection, index) => list.append(selectionItem(selection, index)));
      hint.style.setProperty("display", view.selections.length ? "none" : "block", "important");
      similar.checked = view.similar;
      edit.value = view.lastSelector || "";
      edit.disabled = !view.lastSelector;
      editApply.disabled = !view.lastSelector;
      sourceList.textContent = "";
      for (const source of view.sources) sourceList.append(sourceItem(source));
      sourceHint.style.setProperty("display", view.sources.length ? "none" : "block", "important");
      blockSources.disabled = !view.sources.some((source) => source.checked && !source.blocked);
      save.textContent = "Hide " + view.selections.length + " selected filter(s)";
      save.disabled = view.selections.length === 0;
    }

    return {
      root,
      render,
      setStatus: (text) => { status.textContent = text; },
      setEditError: (text) => { editError.textContent = text; },
    };
  }

  return { create };
})();
