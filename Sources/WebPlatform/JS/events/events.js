// layer: events/events
// order: 50
// provides: eventClass, userInput
// requires: DOMException, computeStyle
//
// Events (DOM 2.9 dispatch), event constructors, focus, and trusted user input from the harness.
//
// Scripts can only make untrusted events (`dispatchEvent`, `element.click()`: isTrusted false);
// the harness's input functions below dispatch with isTrusted true, as a user's input would.
(function (ctx) {
  "use strict";
  const impl = ctx.impl;
  const proto = ctx.EventTarget.prototype;
  const Event = impl.Event;
  const NONE = 0, CAPTURING = 1, AT_TARGET = 2, BUBBLING = 3;

  // domino stamps events with the engine realm's Date.now(); time must come from the virtual
  // clock (nothing may read the wall clock).
  Date.now = function now() { return ctx.host.now(); };

  // MARK: - Dispatch (DOM 2.9), with Window at the end of the path

  function invoke(target, event, phase) {
    const list = target._listeners && target._listeners[event.type];
    if (!list) return;
    event.currentTarget = target === event._advWindowTarget ? event._advWindowGlobal || target : target;
    event.eventPhase = phase;
    for (const record of list.slice()) {
      if (event._immediatePropagationStopped) return;
      if (phase === CAPTURING && !record.capture) continue;
      if (phase === BUBBLING && record.capture) continue;
      if (record.f) record.f.call(event.currentTarget, event);
    }
  }

  function windowTargetOf(node) {
    const doc = node.nodeType === 9 ? node : null;
    return doc && doc._advWindowTarget ? doc._advWindowTarget : null;
  }

  proto._dispatchEvent = function _dispatchEvent(event, trusted) {
    if (!event || !event._initialized || event._dispatching) {
      throw new ctx.DOMException("The object is in an invalid state.", "InvalidStateError");
    }
    event.isTrusted = trusted === true;
    event._dispatching = true;
    // An event fired at a page's window (load, popstate, storage…) has the page world's window
    // as its target, except `load`, whose target is the document (HTML's "legacy target
    // override flag").
    const ownDocument = this.document;
    const windowGlobal = ownDocument && ownDocument._advWindowTarget === this && ownDocument.defaultView !== this ? ownDocument.defaultView : null;
    event.target = windowGlobal ? (event.type === "load" ? ownDocument : windowGlobal) : this;
    if (windowGlobal) { event._advWindowTarget = this; event._advWindowGlobal = windowGlobal; }
    const path = [this];
    for (let n = this.parentNode; n; n = n.parentNode) path.push(n);
    // HTML "get the parent" of a Document is its Window, except for `load` events.
    const last = path[path.length - 1];
    const windowTarget = windowTargetOf(last);
    if (windowTarget && event.type !== "load") {
      path.push(windowTarget);
      event._advWindowTarget = windowTarget;
      event._advWindowGlobal = last.defaultView;
    }
    event._advPath = path;
    try {
      for (let i = path.length - 1; i > 0 && !event._propagationStopped; i--) invoke(path[i], event, CAPTURING);
      if (!event._propagationStopped) {
        // DOM 2.9 (2021): at the target, capturing listeners run before non-capturing ones.
        const list = this._listeners && this._listeners[event.type];
        if (list) {
          event.currentTarget = windowGlobal || this; event.eventPhase = AT_TARGET;
          const snapshot = list.slice();
          for (const pass of [true, false]) {
            for (const record of snapshot) {
              if (event._immediatePropagationStopped) break;
              if (record.capture === pass && record.f) record.f.call(event.currentTarget, event);
            }
          }
        }
      }
      if (event.bubbles) {
        for (let i = 1; i < path.length && !event._propagationStopped; i++) invoke(path[i], event, BUBBLING);
      }
    } finally {
      // DOM 2.9 step 26-27: the dispatch and stop-propagation flags are unset afterwards.
      event._dispatching = false;
      event._propagationStopped = false;
      event._immediatePropagationStopped = false;
      event.eventPhase = NONE;
      event.currentTarget = null;
      event._advPath = null;
      event._advWindowTarget = null;
      event._advWindowGlobal = null;
    }
    return !event.defaultPrevented;
  };

  Object.defineProperty(Event.prototype, "composedPath", { configurable: true, writable: true, value: function composedPath() {
    const path = this._advPath;
    if (!path) return [];
    return path.map((t) => (t === this._advWindowTarget && this._advWindowGlobal ? this._advWindowGlobal : t));
  } });
  for (const [name, value] of [["NONE", 0], ["CAPTURING_PHASE", 1], ["AT_TARGET", 2], ["BUBBLING_PHASE", 3]]) {
    if (!Object.prototype.hasOwnProperty.call(Event.prototype, name)) Object.defineProperty(Event.prototype, name, { value, enumerable: true });
    if (!Object.prototype.hasOwnProperty.call(Event, name)) Object.defineProperty(Event, name, { value, enumerable: true });
  }
  if (!("composed" in Event.prototype)) Object.defineProperty(Event.prototype, "composed", { value: false, writable: true, configurable: true });

  // MARK: - Event constructors with dictionaries (UI Events §3); domino's ignore their arguments

  function eventClass(name, Base, basePrototype, defaults) {
    const Class = function (type, init) {
      if (!new.target) throw new TypeError("Failed to construct '" + name + "': Please use the 'new' operator.");
      if (arguments.length === 0) throw new TypeError("Not enough arguments");
      Base.call(this);
      init = init || {};
      this.type = String(type);
      // DOM 2.2: a new event's phase is NONE (domino starts at AT_TARGET).
      this.eventPhase = NONE;
      this.bubbles = !!init.bubbles;
      this.cancelable = !!init.cancelable;
      this.composed = !!init.composed;
      for (const key of Object.keys(defaults)) this[key] = key in init ? init[key] : defaults[key];
    };
    Object.defineProperty(Class, "name", { value: name });
    Class.prototype = basePrototype || Object.create(Base.prototype);
    if (!basePrototype) Object.defineProperty(Class.prototype, "constructor", { value: Class, writable: true, configurable: true });
    return Class;
  }
  const EventClass = eventClass("Event", impl.Event, impl.Event.prototype, {});
  const CustomEvent = eventClass("CustomEvent", impl.CustomEvent, impl.CustomEvent.prototype, { detail: null });
  const UI = { view: null, detail: 0 };
  const MODIFIERS = { ctrlKey: false, shiftKey: false, altKey: false, metaKey: false };
  const MOUSE = Object.assign({}, UI, MODIFIERS, { screenX: 0, screenY: 0, clientX: 0, clientY: 0, button: 0, buttons: 0, relatedTarget: null });
  const UIEvent = eventClass("UIEvent", impl.UIEvent, impl.UIEvent.prototype, UI);
  const MouseEvent = eventClass("MouseEvent", impl.MouseEvent, impl.MouseEvent.prototype, MOUSE);
  const PointerEvent = eventClass("PointerEvent", impl.MouseEvent, null, Object.assign({}, MOUSE, { pointerId: 0, pointerType: "", isPrimary: false, width: 1, height: 1, pressure: 0 }));
  const KeyboardEvent = eventClass("KeyboardEvent", impl.UIEvent, null, Object.assign({}, UI, MODIFIERS, { key: "", code: "", location: 0, repeat: false, isComposing: false, charCode: 0, keyCode: 0, which: 0 }));
  const FocusEvent = eventClass("FocusEvent", impl.UIEvent, null, Object.assign({}, UI, { relatedTarget: null }));
  const InputEvent = eventClass("InputEvent", impl.UIEvent, null, Object.assign({}, UI, { data: null, inputType: "", isComposing: false }));
  const SubmitEvent = eventClass("SubmitEvent", impl.Event, null, { submitter: null });
  ctx.eventClass = eventClass;
  Object.assign(ctx.domGlobals, { Event: EventClass, CustomEvent, UIEvent, MouseEvent, PointerEvent, KeyboardEvent, FocusEvent, InputEvent, SubmitEvent });

  // MARK: - Focus (HTML 6.6)

  function isDisabled(element) {
    return ["button", "input", "select", "textarea"].includes(element.localName) && element.hasAttribute("disabled");
  }
  function isRendered(element) {
    for (let n = element; n && n.nodeType === 1; n = n.parentNode) {
      const values = ctx.computeStyle(n);
      if (values && values.display === "none") return false;
    }
    return !!element.rooted;
  }
  // HTML 6.6.2 focusable areas: controls that are not disabled, links with href, elements with
  // tabindex, editing hosts; and only when rendered.
  function isFocusable(element) {
    if (!element || element.nodeType !== 1 || isDisabled(element)) return false;
    const name = element.localName;
    const focusableByDefault = (name === "a" || name === "area") ? element.hasAttribute("href")
      : name === "input" ? (element.getAttribute("type") || "").toLowerCase() !== "hidden"
      : ["button", "select", "textarea", "iframe", "summary"].includes(name);
    const editable = (element.getAttribute("contenteditable") || "false").toLowerCase() !== "false";
    if (!focusableByDefault && !element.hasAttribute("tabindex") && !editable) return false;
    return isRendered(element);
  }

  function fire(target, type, Class, init, trusted) {
    const event = new Class(type, init);
    if (target.ownerDocument && target.ownerDocument.defaultView) event.view = target.ownerDocument.defaultView;
    return target._dispatchEvent(event, trusted);
  }

  // HTML "focusing steps" and "unfocusing steps": blur and focusout at the old element, then
  // focus and focusin at the new one (WebKit: Document::setFocusedElement).
  function setFocus(doc, element, trusted) {
    const previous = doc._advFocused || null;
    if (previous === element) return;
    doc._advFocused = element;
    if (previous && previous.rooted) {
      if (previous._advValueAtFocus !== undefined && previous._advValueAtFocus !== previous.value && isTextControl(previous)) {
        fire(previous, "change", Event, { bubbles: true }, true);
      }
      previous._advValueAtFocus = undefined;
      fire(previous, "blur", FocusEvent, { relatedTarget: element }, trusted);
      fire(previous, "focusout", FocusEvent, { bubbles: true, relatedTarget: element }, trusted);
    }
    if (element) {
      if (isTextControl(element)) element._advValueAtFocus = element.value;
      fire(element, "focus", FocusEvent, { relatedTarget: previous }, trusted);
      fire(element, "focusin", FocusEvent, { bubbles: true, relatedTarget: previous }, trusted);
    }
  }
  function focusElement(element, trusted) {
    if (!isFocusable(element)) return false;
    setFocus(element.ownerDocument, element, trusted);
    return true;
  }
  function blurElement(element, trusted) {
    const doc = element.ownerDocument;
    if (doc._advFocused === element) setFocus(doc, null, trusted);
  }
  // HTMLElement's focus() and blur() (HTML 6.6.4, the HTMLOrSVGElement mixin) in place of
  // domino's no-ops, for every element class, a plain HTMLElement (<section tabindex>, a custom
  // element) too: the loader gives domino's operations WebIDL's configurable properties.
  const focusMethods = {
    focus() { focusElement(this, true); },
    blur() { blurElement(this, true); },
  };
  for (const key of ["focus", "blur"]) {
    Object.defineProperty(impl.HTMLElement.prototype, key, { configurable: true, enumerable: true, writable: true, value: focusMethods[key] });
  }

  function isTextControl(element) {
    if (!element || element.nodeType !== 1) return false;
    if (element.localName === "textarea") return true;
    if (element.localName !== "input") return false;
    const type = (element.getAttribute("type") || "text").toLowerCase();
    return ["text", "search", "email", "url", "tel", "password", "number"].includes(type);
  }

  // MARK: - Trusted input (harness side, through input.js)

  // A user's click (UI Events §4.3.3 order) at `at` (viewport coordinates): pointerdown,
  // mousedown, focus, pointerup, mouseup, click, then the element's activation behaviour
  // (checkbox/radio: toggle, input, change).
  function click(element, at, options) {
    options = options || {};
    const mouse = Object.assign({ bubbles: true, cancelable: true, composed: true, clientX: at.x, clientY: at.y, button: 0, detail: 1 }, options);
    const pointer = Object.assign({ pointerId: 1, pointerType: "mouse", isPrimary: true }, mouse);
    fire(element, "pointerdown", PointerEvent, Object.assign({}, pointer, { buttons: 1 }), true);
    const down = fire(element, "mousedown", MouseEvent, Object.assign({}, mouse, { buttons: 1 }), true);
    if (down) {
      let focusTarget = element;
      while (focusTarget && focusTarget.nodeType === 1 && !isFocusable(focusTarget)) focusTarget = focusTarget.parentNode;
      setFocus(element.ownerDocument, focusTarget && focusTarget.nodeType === 1 ? focusTarget : null, true);
    }
    fire(element, "pointerup", PointerEvent, pointer, true);
    fire(element, "mouseup", MouseEvent, mouse, true);
    return activate(element, mouse, true);
  }

  function activate(element, mouse, trusted) {
    if (isDisabled(element)) return false;
    const type = element.localName === "input" ? (element.getAttribute("type") || "").toLowerCase() : "";
    const toggles = type === "checkbox" || type === "radio";
    const before = toggles ? element.checked : null;
    // HTML 4.10.5.5 legacy-pre-activation behaviour: the checkbox toggles before the event.
    if (toggles) element.checked = type === "checkbox" ? !before : true;
    const ok = fire(element, "click", MouseEvent, mouse, trusted);
    if (toggles) {
      if (!ok) element.checked = before;
      else if (element.checked !== before) {
        fire(element, "input", Event, { bubbles: true, composed: true }, true);
        fire(element, "change", Event, { bubbles: true }, true);
      }
    }
    // A submit button's activation behaviour submits its form (HTML 4.10.6 button, 4.10.5.1.19).
    if (ok && isSubmitButton(element)) submitForm(formOwner(element), element);
    return ok;
  }

  // MARK: - Forms (HTML 4.10.21 form submission)

  function isSubmitButton(element) {
    if (element.localName === "button") {
      const type = (element.getAttribute("type") || "submit").toLowerCase();
      return type !== "button" && type !== "reset";
    }
    if (element.localName === "input") {
      const type = (element.getAttribute("type") || "").toLowerCase();
      return type === "submit" || type === "image";
    }
    return false;
  }
  function formOwner(element) {
    const id = element.getAttribute("form");
    if (id !== null) {
      const named = element.ownerDocument.getElementById(id);
      return named && named.localName === "form" ? named : null;
    }
    for (let n = element.parentNode; n && n.nodeType === 1; n = n.parentNode) if (n.localName === "form") return n;
    return null;
  }
  // Fires `submit` (a SubmitEvent naming the submitter) at the form, unless it has novalidate-
  // free invalid controls (not modelled: every control counts as valid). What an uncancelled
  // submission does next, navigating to the form's action, is not modelled either: extension
  // pages and the pages ADV is tested on handle submit in script.
  function submitForm(form, submitter) {
    if (!form || form._advSubmitting) return;
    form._advSubmitting = true;
    try { fire(form, "submit", SubmitEvent, { bubbles: true, cancelable: true, submitter: submitter || null }, true); } finally { form._advSubmitting = false; }
  }
  // MARK: - Text selection (HTML 4.10.5.2.10) for textarea and text-like inputs

  // Where selection applies: textarea and input types text, search, url, tel, password.
  function selectionApplies(element) {
    if (element.localName === "textarea") return true;
    if (element.localName !== "input") return false;
    return ["text", "search", "url", "tel", "password"].includes((element.getAttribute("type") || "text").toLowerCase());
  }
  // The field's selection; a value set by script since the selection was made puts the caret
  // at its end (HTML: setting `value` moves the cursor to the end).
  function selectionState(element) {
    const value = String(element.value || "");
    let state = element._advSelection;
    if (!state) {
      state = { start: value.length, end: value.length, direction: "none", value };
      Object.defineProperty(element, "_advSelection", { value: state, writable: true });
    } else if (state.value !== value) {
      state.start = state.end = value.length;
      state.direction = "none";
      state.value = value;
    }
    return state;
  }
  function queueSelectEvent(element) {
    const pageId = element.ownerDocument && element.ownerDocument._advPageId;
    if (pageId === undefined) return;
    ctx.host.setTimer(pageId, () => fire(element, "select", Event, { bubbles: true }, true), 0, false, [], "select event");
  }
  function setSelectionRange(element, start, end, direction) {
    const length = String(element.value || "").length;
    start = Math.min(Number(start) >>> 0, length);
    end = Math.min(Number(end) >>> 0, length);
    if (start > end) start = end;
    const state = selectionState(element);
    const changed = state.start !== start || state.end !== end;
    state.start = start;
    state.end = end;
    state.value = String(element.value || "");
    state.direction = direction === "forward" || direction === "backward" ? direction : "none";
    if (changed) queueSelectEvent(element);
  }
  const notApplicable = () => new ctx.DOMException("The input element's type does not support selection.", "InvalidStateError");
  const selectionAPI = {
    select() {
      if (!selectionApplies(this)) return;
      setSelectionRange(this, 0, String(this.value || "").length, "none");
    },
    setSelectionRange(start, end, direction) {
      if (!selectionApplies(this)) throw notApplicable();
      setSelectionRange(this, start, end, direction);
    },
  };
  const selectionAccessors = {
    selectionStart: {
      get() { return selectionApplies(this) ? selectionState(this).start : null; },
      set(value) { if (!selectionApplies(this)) throw notApplicable(); const s = selectionState(this); setSelectionRange(this, value, Math.max(Number(value) >>> 0, s.end), s.direction); },
    },
    selectionEnd: {
      get() { return selectionApplies(this) ? selectionState(this).end : null; },
      set(value) { if (!selectionApplies(this)) throw notApplicable(); const s = selectionState(this); setSelectionRange(this, s.start, value, s.direction); },
    },
    selectionDirection: {
      get() { return selectionApplies(this) ? selectionState(this).direction : null; },
      set(value) { if (!selectionApplies(this)) throw notApplicable(); const s = selectionState(this); setSelectionRange(this, s.start, s.end, value); },
    },
  };
  for (const Class of [impl.HTMLInputElement, impl.HTMLTextAreaElement]) {
    if (!Class) continue;
    for (const [name, value] of Object.entries(selectionAPI)) Object.defineProperty(Class.prototype, name, { configurable: true, writable: true, value });
    for (const [name, accessor] of Object.entries(selectionAccessors)) Object.defineProperty(Class.prototype, name, Object.assign({ configurable: true, enumerable: true }, accessor));
  }

  // HTMLFormElement.requestSubmit(submitter): submission as if `submitter` were clicked.
  if (impl.HTMLFormElement) {
    Object.defineProperty(impl.HTMLFormElement.prototype, "requestSubmit", { configurable: true, writable: true, value: function requestSubmit(submitter) {
      if (submitter !== undefined && submitter !== null) {
        if (!isSubmitButton(submitter)) throw new TypeError("The specified element is not a submit button.");
        if (formOwner(submitter) !== this) throw new ctx.DOMException("The specified element is not owned by this form element.", "NotFoundError");
      }
      submitForm(this, submitter || null);
    } });
  }
  // HTML 4.10.21.2 implicit submission: Enter in a text field activates the form's default
  // button (its first submit button) or, with none, submits a form with a single such field.
  function submitImplicitly(field) {
    const form = formOwner(field);
    if (!form) return;
    const controls = Array.prototype.filter.call(form.querySelectorAll("button, input"), (c) => formOwner(c) === form);
    const defaultButton = controls.find(isSubmitButton);
    if (defaultButton) {
      if (!isDisabled(defaultButton)) activate(defaultButton, { bubbles: true, cancelable: true, composed: true, detail: 0 }, true);
      return;
    }
    const fields = controls.filter((c) => c.localName === "input" && isTextControl(c));
    if (fields.length <= 1) submitForm(form, null);
  }

  // HTMLElement.click() (HTML 6.4.4): nothing for a disabled form control; otherwise a synthetic
  // (untrusted) click with the element's activation behaviour, in place of domino's own.
  const clickMethod = { click() {
    if (isDisabled(this) || this._advClicking) return;
    this._advClicking = true;
    try { activate(this, { bubbles: true, cancelable: true, composed: true, detail: 1 }, false); } finally { this._advClicking = false; }
  } }.click;
  Object.defineProperty(impl.HTMLElement.prototype, "click", { configurable: true, enumerable: true, writable: true, value: clickMethod });

  const KEY_CODES = { Enter: 13, Escape: 27, Tab: 9, Backspace: 8, " ": 32, ArrowLeft: 37, ArrowUp: 38, ArrowRight: 39, ArrowDown: 40, Delete: 46 };
  function keyInit(key, options) {
    const printable = key.length === 1;
    const keyCode = KEY_CODES[key] || (printable ? key.toUpperCase().charCodeAt(0) : 0);
    const code = printable ? (/[a-z]/i.test(key) ? "Key" + key.toUpperCase() : /[0-9]/.test(key) ? "Digit" + key : key === " " ? "Space" : "") : key;
    return Object.assign({ bubbles: true, cancelable: true, composed: true, key, code, keyCode, which: keyCode }, options || {});
  }
  // Typing replaces the field's selection (the caret, with none: the end of the value) and
  // leaves the caret after what was typed.
  function caretOf(field) {
    const state = selectionState(field);
    return { start: state.start, end: state.end };
  }
  function setCaret(field, start, end) {
    const state = selectionState(field);
    state.start = start;
    state.end = end;
    state.direction = "none";
  }
  function replaceSelection(field, text) {
    const value = String(field.value || "");
    const caret = caretOf(field);
    field.value = value.slice(0, caret.start) + text + value.slice(caret.end);
    // selectionState takes the new value as set by script and moves the caret to its end;
    // the caret belongs right after the typed text instead.
    setCaret(field, caret.start + text.length, caret.start + text.length);
  }
  // A key press at the focused element (or body): keydown, keypress for keys that produce a
  // character, the text edit (input event) in a focused text control, keyup.
  function pressKey(doc, key, options) {
    const target = doc._advFocused && doc._advFocused.rooted ? doc._advFocused : (doc.body || doc.documentElement);
    const init = keyInit(String(key), options);
    const down = fire(target, "keydown", KeyboardEvent, init, true);
    const printable = init.key.length === 1 && !init.ctrlKey && !init.metaKey;
    if (down && (printable || init.key === "Enter")) {
      const charCode = printable ? init.key.charCodeAt(0) : 13;
      const press = fire(target, "keypress", KeyboardEvent, Object.assign({}, init, { charCode, keyCode: charCode, which: charCode }), true);
      if (press && printable && isTextControl(target) && !target.hasAttribute("readonly")) {
        replaceSelection(target, init.key);
        fire(target, "input", InputEvent, { bubbles: true, composed: true, data: init.key, inputType: "insertText" }, true);
      } else if (press && init.key === "Enter" && target.localName === "input" && isTextControl(target)) {
        if (target._advValueAtFocus !== target.value) {
          // HTML 4.10.5.5: committing a text field's value (Enter) fires change.
          target._advValueAtFocus = target.value;
          fire(target, "change", Event, { bubbles: true }, true);
        }
        submitImplicitly(target);
      }
    } else if (down && init.key === "Backspace" && isTextControl(target) && target.value && !target.hasAttribute("readonly")) {
      const caret = caretOf(target);
      if (caret.start !== caret.end || caret.start > 0) {
        if (caret.start === caret.end) setCaret(target, caret.start - 1, caret.end);
        replaceSelection(target, "");
        fire(target, "input", InputEvent, { bubbles: true, composed: true, data: null, inputType: "deleteContentBackward" }, true);
      }
    }
    fire(target, "keyup", KeyboardEvent, init, true);
    return down;
  }

  // The harness's trusted input, for input.js, which places a click by layout (the element's
  // box comes from layout/geometry.js, which loads above this layer).
  ctx.userInput = {
    click,
    pressKey,
    focus(element) { return focusElement(element, true); },
    blur(element) { blurElement(element, true); },
    type(element, text) {
      if (element.ownerDocument._advFocused !== element) focusElement(element, true);
      for (const ch of String(text)) pressKey(element.ownerDocument, ch);
    },
    select(element, value) {
      element.value = String(value);
      fire(element, "input", Event, { bubbles: true, composed: true }, true);
      fire(element, "change", Event, { bubbles: true }, true);
    },
  };

  return {
    name: "events",
    page(p) {
      Object.defineProperty(p.document, "_advWindowTarget", { value: p.windowTarget });
      Object.defineProperty(p.document, "_advFocused", { value: null, writable: true });
      // HTML 6.6.5: the focused element, else the body.
      Object.defineProperty(p.document, "activeElement", {
        get() { const f = this._advFocused; return f && f.rooted ? f : (this.body || this.documentElement || null); },
        configurable: true, enumerable: true,
      });
      Object.defineProperty(p.document, "hasFocus", { value: function hasFocus() { return true; }, configurable: true, writable: true });
    },
  };
})
