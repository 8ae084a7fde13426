from boardgamesbot.cli import main

raise SystemExit(main())
