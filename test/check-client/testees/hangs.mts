// Bug: reads requests and never answers (and ignores the end of its input).
process.stdin.resume()
setInterval(() => {}, 1000)
