// mockpolicy report: sortable tables and table filters. No network, no eval;
// the page's Content-Security-Policy allows this script by its hash only.
(function () {
  "use strict";
  var live = document.getElementById("live");

  function key(cell, numeric) {
    var raw = cell.getAttribute("data-sort");
    var text = raw !== null ? raw : cell.textContent.trim();
    return numeric ? parseFloat(text) || 0 : text.toLowerCase();
  }

  function sortBy(table, column, numeric, button) {
    var header = button.parentNode;
    var ascending = header.getAttribute("aria-sort") !== "ascending";
    if (numeric && header.getAttribute("aria-sort") === null) {
      ascending = false; // counts read best largest first
    }
    var headers = table.querySelectorAll("thead th");
    for (var i = 0; i < headers.length; i++) {
      headers[i].removeAttribute("aria-sort");
    }
    header.setAttribute("aria-sort", ascending ? "ascending" : "descending");
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (a, b) {
      var x = key(a.cells[column], numeric);
      var y = key(b.cells[column], numeric);
      var order = x < y ? -1 : x > y ? 1 : 0;
      return ascending ? order : -order;
    });
    var fragment = document.createDocumentFragment();
    rows.forEach(function (row) { fragment.appendChild(row); });
    body.appendChild(fragment);
    if (live) {
      live.textContent = "Sorted by " + button.textContent.trim() + ", " + (ascending ? "ascending" : "descending") + ".";
    }
  }

  Array.prototype.forEach.call(document.querySelectorAll("table.sortable"), function (table) {
    Array.prototype.forEach.call(table.querySelectorAll("thead th"), function (header, column) {
      var button = header.querySelector("button");
      if (!button) {
        return;
      }
      var numeric = header.classList.contains("num");
      button.addEventListener("click", function () { sortBy(table, column, numeric, button); });
    });
  });

  Array.prototype.forEach.call(document.querySelectorAll("input[data-filter]"), function (input) {
    var table = document.getElementById(input.getAttribute("data-filter"));
    var status = document.getElementById(input.getAttribute("aria-describedby"));
    if (!table) {
      return;
    }
    input.addEventListener("input", function () {
      var needle = input.value.trim().toLowerCase();
      var shown = 0;
      Array.prototype.forEach.call(table.tBodies[0].rows, function (row) {
        var match = !needle || row.textContent.toLowerCase().indexOf(needle) !== -1;
        row.hidden = !match;
        if (match) {
          shown += 1;
        }
      });
      if (status) {
        status.textContent = shown + " of " + table.tBodies[0].rows.length + " rows shown.";
      }
    });
  });
  document.documentElement.setAttribute("data-ready", "true");
}());
