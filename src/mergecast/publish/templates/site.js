// Progressive enhancement: without this file, "Copy feed URL" opens the feed and "Share"
// opens the page's own address, both of which can be copied from the address bar.
(function () {
  "use strict";
  function say(el, text) {
    var nav = el.closest(".subscribe");
    var status = nav && nav.querySelector(".status");
    if (status) status.textContent = text;
  }
  function copy(el, text, done) {
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(text).then(
        function () { say(el, done); },
        function () { say(el, text); });
    } else {
      say(el, text);
    }
  }
  document.addEventListener("click", function (ev) {
    var el = ev.target.closest("a[data-copy], a[data-share]");
    if (!el) return;
    ev.preventDefault();
    var copyText = el.getAttribute("data-copy");
    if (copyText) {
      copy(el, copyText, "Feed URL copied: paste it into your podcast app.");
      return;
    }
    var url = el.getAttribute("data-share");
    if (navigator.share) {
      navigator.share({ title: el.getAttribute("data-title") || document.title, url: url })
        .catch(function () {});
    } else {
      copy(el, url, "Link copied.");
    }
  });
})();
