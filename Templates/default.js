// default.js
