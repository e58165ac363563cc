"""`rulecraft serve`: games played in the browser, one secret link per seat."""
