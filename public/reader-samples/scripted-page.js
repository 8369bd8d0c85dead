// The reader demo's sample of a page built in the browser: a plain fetch of the HTML sees only
// "Loading the article…"; the reader's browser engine runs this script and reads what it writes.
;(function () {
  var sections = [
    ['h1', 'How a single-page app hides its text from a plain fetch'],
    [
      'p',
      'This article is not in the HTML the server sends. The HTML holds an empty frame and a script; the script writes these paragraphs once the browser runs it, as most single-page applications, many news sites and documentation portals do.',
    ],
    [
      'p',
      'A reader that only downloads the HTML finds nothing but the loading line. A reader that renders the page in a browser engine waits for the script, then converts what it wrote, headings and lists included.',
    ],
    ['h2', 'What the browser engine adds'],
    ['li', 'Scripts run, so text inserted after load is read.'],
    ['li', 'Screenshots of the first screen or of the whole page.'],
    ['li', 'Waiting for a selector, shadow DOM and iframes.'],
    [
      'p',
      'Every request the page makes still passes the reader\u2019s address rules, so rendering a stranger\u2019s page never reaches a private network.',
    ],
  ]
  var app = document.getElementById('app')
  app.textContent = ''
  var list = null
  sections.forEach(function (section) {
    var element = document.createElement(section[0])
    element.textContent = section[1]
    if (section[0] === 'li') {
      if (!list) {
        list = document.createElement('ul')
        app.appendChild(list)
      }
      list.appendChild(element)
      return
    }
    list = null
    app.appendChild(element)
  })
  var note = document.createElement('p')
  note.className = 'note'
  note.textContent = 'Written by a script at ' + new Date().toISOString().slice(0, 10) + '.'
  app.appendChild(note)
})()
