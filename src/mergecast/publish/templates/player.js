// Progressive enhancement: without this file, chapter links open the MP3 at that time.
(function () {
  "use strict";
  var audio = document.getElementById("player");
  if (!audio) return;
  document.documentElement.classList.add("js");
  function seek(t) {
    if (!isFinite(t)) return;
    audio.currentTime = t;
    var p = audio.play();
    if (p && p.catch) p.catch(function () {});
  }
  document.addEventListener("click", function (ev) {
    var el = ev.target.closest("a.seek, .cue[data-start]");
    if (!el) return;
    if (el.tagName !== "A" && ev.target.closest("a")) return; // a PR link inside a sentence
    ev.preventDefault();
    seek(parseFloat(el.getAttribute("data-start")));
  });
  var cues = Array.prototype.slice.call(document.querySelectorAll(".cue[data-start]"));
  var chapters = Array.prototype.slice.call(document.querySelectorAll(".chapters a.seek"));
  function mark(list, t) {
    var current = null;
    list.forEach(function (el) { if (parseFloat(el.getAttribute("data-start")) <= t + 0.05) current = el; });
    list.forEach(function (el) { el.classList.toggle("now", el === current); });
  }
  audio.addEventListener("timeupdate", function () {
    mark(cues, audio.currentTime);
    mark(chapters, audio.currentTime);
  });
  var m = /(?:^|[#&])t=([0-9.]+)/.exec(location.hash);
  if (m) audio.addEventListener("loadedmetadata", function () { audio.currentTime = parseFloat(m[1]); }, { once: true });
})();
