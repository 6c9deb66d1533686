import BrollyCLI

await BrollyMain.main()
