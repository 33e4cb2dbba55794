// layer: events/input
// order: 105
// provides:
// requires: userInput, boxOf
//
// Trusted input from the harness (Page.click, pressKey, type, focus, blur, choose): the events
// a user's input makes, with isTrusted true (events.js dispatches them). It is a layer of its own
// because a user's click lands at the centre of the element's box, which layout/geometry.js
// knows, and layout loads after events.js.
(function (ctx) {
  "use strict";
  const user = ctx.userInput;

  // The centre of the element's box in viewport coordinates; the viewport's origin without one.
  function centre(element) {
    const rect = ctx.boxOf(element);
    return rect ? { x: rect.x + rect.width / 2, y: rect.y + rect.height / 2 } : { x: 0, y: 0 };
  }

  return {
    name: "input",
    click(element, options) { return user.click(element, centre(element), options); },
    pressKey: user.pressKey,
    focus: user.focus,
    blur: user.blur,
    type: user.type,
    select: user.select,
  };
})
