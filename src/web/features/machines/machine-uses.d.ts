// Made at build time by scripts/machine-uses.ts (vite plugin machineUses, its MachineUses type):
// module path -> exported name -> the screens and server calls that use it.
declare module 'virtual:machine-uses' {
  const uses: Record<string, Record<string, { screens: string[]; calls: string[]; callsVia: string[] }>>;
  export default uses;
}
