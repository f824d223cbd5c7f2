/* Choosing on the board (issue 24, item 7): when the board offers a decision's targets, their
   buttons are listed folded under the board (details#board-choices, buttons of the form
   #move-form by their form attribute). Clicking a highlighted target, or pressing Enter or Space
   on it, presses its button; hovering or focusing a button marks its target. Targets whose
   button is inside #move-form are wired by the game page's own script. Plain JavaScript. */
(function () {
  "use strict";
  var wire = function (root) {
    var list = root.querySelector("#board-choices");
    if (!list || list.getAttribute("data-wired")) return;
    list.setAttribute("data-wired", "1");
    var byMove = {};
    list.querySelectorAll('button.move[form="move-form"]').forEach(function (b) { byMove[b.value] = b; });
    root.querySelectorAll("svg [data-move]").forEach(function (el) {
      var b = byMove[el.getAttribute("data-move")];
      if (!b) return;
      var label = b.querySelector(".move-label");
      var name = label ? label.textContent : el.getAttribute("data-move");
      var copy = el.cloneNode(true);
      copy.querySelectorAll("title, desc").forEach(function (t) { t.remove(); });
      var shown = (copy.textContent || "").replace(/\s+/g, "");
      el.setAttribute("tabindex", "0");
      el.setAttribute("role", "button");
      el.setAttribute("aria-label", shown && name.indexOf(shown) < 0 ? name + " — " + shown : name);
      el.addEventListener("click", function () { b.click(); });
      el.addEventListener("keydown", function (e) {
        if (e.key === "Enter" || e.key === " " || e.key === "Spacebar") { e.preventDefault(); b.click(); }
      });
      var on = function () { el.classList.add("hl"); }, off = function () { el.classList.remove("hl"); };
      b.addEventListener("mouseenter", on); b.addEventListener("focus", on);
      b.addEventListener("mouseleave", off); b.addEventListener("blur", off);
    });
  };
  // the page's self-refresh wires a new body through window.hansewebBoardZoom: wire it there too
  var zoom = window.hansewebBoardZoom;
  window.hansewebBoardZoom = function (root) { if (zoom) zoom(root); wire(root); };
  wire(document);
})();
