// `express4` is the npm alias under which Express 4 is installed next to Express 5; the
// Express 5 typings describe the part the harness uses.
declare module 'express4' {
  import express from 'express';
  export default express;
}
