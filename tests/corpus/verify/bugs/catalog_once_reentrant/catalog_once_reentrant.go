// Catalog loads itself lazily through a sync.Once. Get runs load under the
// Once, and load asks Size for the number of items, which goes through the
// same Once: the inner Do waits for the outer one to finish, which waits
// for load, so Get never returns.
package catalog

import "sync"

type Catalog struct {
	once  sync.Once
	items map[string]int
	count int
}

func (c *Catalog) load() {
	c.items = map[string]int{"a": 1}
	c.count = c.Size()
}

func (c *Catalog) Size() int {
	c.once.Do(c.load) // want: global-deadlock predicted
	return len(c.items)
}

func (c *Catalog) Get(k string) int {
	c.once.Do(c.load)
	return c.items[k]
}
