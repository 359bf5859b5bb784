"""Words below everything: numbers said and read as people say them, used alike by the engine
(structured replies filled from a prose draft), the voice tools and the training corpus. Imports
nothing of the project."""
