/* Zoom and pan for the boards (issue 12, phones first): buttons (+, −, fit, readable) and a
   two-finger pinch zoom the board's <svg> inside its scrolling box (section.board); one finger,
   the mouse wheel and the scroll bars pan it. On a narrow screen (box under 700 px) the board
   opens at the zoom where its smallest text is 9 CSS px ("readable"), scrolled to the first
   move target, or at the board's width when the decision has no target on the board; "Fit"
   shows the whole board, its height included (issue 24, item 7). Plain JavaScript, no library. */
(function () {
  "use strict";
  var MIN = 1, MAX = 6, READABLE = 9, NARROW = 700;
  // the words, in the page's language: the script tag's data-* (templates translate them)
  var said = (document.currentScript && document.currentScript.dataset) || {};
  var T = function (key, english) { return said[key] || english; };
  // wires every board under root (the page, or a body the self-refresh has just put in)
  var init = function (root) { root.querySelectorAll("section.board").forEach(function (box) {
    var svg = box.querySelector("svg");
    if (!svg || box.getAttribute("data-zoom-ready")) return;
    box.setAttribute("data-zoom-ready", "1");
    var zoom = 1;
    // the zoom at which the whole board fits the box (1: the board's width; below 1 when the
    // board is taller than the box may grow)
    var fitting = function () {
      var vb = svg.viewBox && svg.viewBox.baseVal, room = parseFloat(window.getComputedStyle(box).maxHeight);
      if (!vb || !vb.width || !vb.height || !(room > 0) || !box.clientWidth) return 1;
      return Math.max(0.2, Math.min(1, room / (box.clientWidth * vb.height / vb.width)));
    };
    var set = function (z, cx, cy) {
      z = Math.max(Math.min(MIN, fitting()), Math.min(MAX, z));
      // keep the point under (cx, cy) (box coordinates) where it is
      var rect = box.getBoundingClientRect();
      cx = cx === undefined ? rect.width / 2 : cx;
      cy = cy === undefined ? rect.height / 2 : cy;
      var fx = (box.scrollLeft + cx) / (box.scrollWidth || 1), fy = (box.scrollTop + cy) / (box.scrollHeight || 1);
      zoom = z;
      svg.style.width = (zoom * 100) + "%";
      svg.style.maxWidth = zoom === 1 ? "" : "none";
      svg.style.margin = zoom < 1 ? "0 auto" : "";
      box.classList.toggle("zoomed", zoom > 1);
      box.scrollLeft = fx * box.scrollWidth - cx;
      box.scrollTop = fy * box.scrollHeight - cy;
      level.textContent = Math.round(zoom * 100) + "%";
    };
    var tools = document.createElement("div");
    tools.className = "board-tools";
    tools.setAttribute("role", "group");
    tools.setAttribute("aria-label", T("group", "Zoom the board"));
    var button = function (text, name, fn) {
      var b = document.createElement("button");
      b.type = "button"; b.textContent = text; b.className = "secondary zoom-" + name;
      b.setAttribute("aria-label", {"in": T("in", "Zoom in"), "out": T("out", "Zoom out"),
                                    "fit": T("fitLong", "Fit the board to the screen"),
                                    "readable": T("readable", "Zoom until the smallest text is readable")}[name]);
      b.addEventListener("click", fn);
      tools.appendChild(b);
      return b;
    };
    button("+", "in", function () { set(zoom * 1.5); });
    button("−", "out", function () { set(zoom / 1.5); });
    button(T("fit", "Fit"), "fit", function () { set(fitting()); });
    // the zoom at which the smallest text (halos left out) is READABLE CSS px
    var readable = function () {
      var ctm = svg.getScreenCTM(), smallest = Infinity;
      if (!ctm) return 1;
      svg.querySelectorAll("text").forEach(function (t) {
        var st = window.getComputedStyle(t);
        if (st.fill === "none" || !t.textContent.trim()) return;
        smallest = Math.min(smallest, parseFloat(st.fontSize) * ctm.a);
      });
      return smallest === Infinity ? 1 : Math.min(MAX, Math.max(1, zoom * READABLE / smallest * 1.01));
    };
    var toTarget = function () {
      var t = svg.querySelector("[data-move]");
      if (!t) return;
      var r = t.getBoundingClientRect(), b = box.getBoundingClientRect();
      box.scrollLeft += r.left - b.left - (b.width - r.width) / 2;
      box.scrollTop += r.top - b.top - (b.height - r.height) / 2;
    };
    button("Aa", "readable", function () { set(readable()); toTarget(); });
    var level = document.createElement("span");
    level.className = "zoom-level"; level.setAttribute("aria-live", "polite"); level.textContent = "100%";
    tools.appendChild(level);
    box.parentNode.insertBefore(tools, box);
    // pinch: two fingers change the zoom by the change of their distance
    var start = null;
    var dist = function (t) { return Math.hypot(t[0].clientX - t[1].clientX, t[0].clientY - t[1].clientY); };
    box.addEventListener("touchstart", function (e) {
      if (e.touches.length === 2) start = {d: dist(e.touches), z: zoom};
    }, {passive: true});
    box.addEventListener("touchmove", function (e) {
      if (!start || e.touches.length !== 2) return;
      e.preventDefault();
      var rect = box.getBoundingClientRect();
      var cx = (e.touches[0].clientX + e.touches[1].clientX) / 2 - rect.left;
      var cy = (e.touches[0].clientY + e.touches[1].clientY) / 2 - rect.top;
      set(start.z * dist(e.touches) / start.d, cx, cy);
    }, {passive: false});
    box.addEventListener("touchend", function (e) { if (e.touches.length < 2) start = null; });
    // a phone opens readable where the decision is; without a target on the board, at its width
    if (box.clientWidth < NARROW && svg.querySelector("[data-move]")) { set(readable(), 0, 0); toTarget(); }
  }); };
  window.hansewebBoardZoom = init;
  init(document);
})();
