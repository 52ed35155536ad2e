// Where `npm run dev` serves unless told otherwise (--port): what `npm run admin` and `npm run connect` reach by default.
export const DEV_PORT = 8787;
export const devOrigin = (port = DEV_PORT) => `http://localhost:${port}`;
