/** The plugin's version, as in package.json (a test keeps the two in step). */
export const version = "0.1.0";
