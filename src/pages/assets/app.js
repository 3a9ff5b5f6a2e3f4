// ontoresolve pages: copy buttons and search suggestions. Every page works without this file.
"use strict";
(function () {
  document.querySelectorAll("button[data-copy]").forEach(function (button) {
    button.hidden = false;
    button.addEventListener("click", function () {
      var text = button.getAttribute("data-copy");
      if (navigator.clipboard) {
        navigator.clipboard.writeText(text).then(function () { button.textContent = "Copied"; }, function () {});
      }
    });
  });
  var input = document.getElementById("q");
  var list = document.getElementById("suggestions");
  if (!input || !list) { return; }
  var timer = null;
  var asked = "";
  function clear() { while (list.firstChild) { list.removeChild(list.firstChild); } list.hidden = true; }
  function show(items) {
    clear();
    items.forEach(function (item) {
      var li = document.createElement("li");
      var a = document.createElement("a");
      a.href = item.href;
      a.textContent = item.label ? item.curie + " " + item.label : item.curie;
      li.appendChild(a);
      list.appendChild(li);
    });
    list.hidden = items.length === 0;
  }
  input.addEventListener("input", function () {
    clearTimeout(timer);
    var text = input.value.trim();
    if (text.length < 2) { clear(); return; }
    timer = setTimeout(function () {
      asked = text;
      fetch("/suggest?q=" + encodeURIComponent(text), { credentials: "same-origin" })
        .then(function (r) { return r.ok ? r.json() : { suggestions: [] }; })
        .then(function (body) { if (asked === text) { show(body.suggestions || []); } })
        .catch(function () { clear(); });
    }, 120);
  });
  input.addEventListener("keydown", function (e) { if (e.key === "Escape") { clear(); } });
})();
