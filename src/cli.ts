const [command] = process.argv.slice(2);
console.error(`context-lens: unknown command ${command ?? ''}`.trim());
process.exit(2);
